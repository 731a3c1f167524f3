/**
 * The shift picker of a `time_slots` field (CONTRACT §14, §15): one checkbox per slot of the form's
 * time-slots list, labelled with its name, day, hours, event and the places left; a full slot, and a slot whose
 * sign-up window is not open now, is disabled with the reason (unless this draft already chose it, so that it can
 * still be unticked).
 */
import { dayText } from "./dayText.js"
import { h } from "./dom.js"

/** A slot as `GET …/time-slots` lists it. */
export interface Slot {
  readonly id: string
  readonly name: string
  readonly date: string
  readonly start_time: string
  readonly end_time: string
  readonly event_name: string
  readonly capacity: number | null
  readonly remaining: number | null
  /** ISO 8601 instants (absent from an older server: no window). */
  readonly starts_at?: string
  readonly signup_opens_at?: string | null
  readonly signup_closes_at?: string | null
  /** A full slot with a waitlist takes waitlisted places (absent from an older server: none). */
  readonly waitlist?: boolean
  readonly waitlisted?: number
}

/** A full slot whose waitlist a submit joins. */
const joinsWaitlist = (slot: Slot): boolean =>
  slot.waitlist === true && slot.remaining !== null && slot.remaining !== undefined &&
  (slot.remaining <= 0 || (typeof slot.waitlisted === "number" && slot.waitlisted > 0))

const instant = (iso: string | null | undefined): number | undefined => {
  if (typeof iso !== "string") return undefined
  const ms = Date.parse(iso)
  return Number.isFinite(ms) ? ms : undefined
}

/** When sign-up opens, in the visitor's clock: "1 Jun 2027, 10:00". */
const momentText = (ms: number): string =>
  new Date(ms).toLocaleString("en-GB", { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" })

/**
 * Why sign-up for the slot is not open at `now` ("Sign-up opens 1 Jun 2027, 10:00", "Sign-up closed"), or
 * undefined while it is: open from `signup_opens_at` until `signup_closes_at`, else until the slot starts.
 */
export const closedText = (slot: Slot, now: number): string | undefined => {
  const opens = instant(slot.signup_opens_at)
  if (opens !== undefined && now < opens) return `Sign-up opens ${momentText(opens)}`
  const closes = instant(slot.signup_closes_at) ?? instant(slot.starts_at)
  return closes !== undefined && now >= closes ? "Sign-up closed" : undefined
}

export const isSlot = (u: unknown): u is Slot => {
  if (typeof u !== "object" || u === null) return false
  const s = u as Record<string, unknown>
  return typeof s["id"] === "string" && typeof s["name"] === "string" && typeof s["date"] === "string" &&
    typeof s["start_time"] === "string" && typeof s["end_time"] === "string"
}

/** "3 places left", "1 place left", "Full", or why sign-up is not open; nothing for an open unlimited slot. */
export const placesText = (slot: Slot, now = Date.now()): string => {
  const closed = closedText(slot, now)
  if (closed !== undefined) return closed
  if (joinsWaitlist(slot)) {
    const waiting = typeof slot.waitlisted === "number" && slot.waitlisted > 0 ? ` (${slot.waitlisted} waiting)` : ""
    return `Full: join the waitlist${waiting}`
  }
  if (slot.remaining === null || slot.remaining === undefined) return ""
  if (slot.remaining <= 0) return "Full"
  return `${slot.remaining} ${slot.remaining === 1 ? "place" : "places"} left`
}

interface LabelPiece {
  readonly text: string
  readonly kind: "name" | "when" | "event" | "places"
}

/**
 * The label of a slot, in pieces: "Bar ·", "Fri 20 Aug 2027, 12:00–16:00 ·", "Festival —", "2 places left". The
 * line wraps between pieces (and inside a long name or event name), never inside the day and hours or the places.
 */
const slotPieces = (slot: Slot): ReadonlyArray<LabelPiece> => {
  const places = placesText(slot)
  const event = typeof slot.event_name === "string" && slot.event_name !== "" ? slot.event_name : ""
  const pieces: Array<LabelPiece> = [
    { text: slot.name, kind: "name" },
    { text: `${dayText(slot.date)}, ${slot.start_time}–${slot.end_time}`, kind: "when" }
  ]
  if (event !== "") pieces.push({ text: event, kind: "event" })
  if (places !== "") pieces.push({ text: places, kind: "places" })
  // Each separator ends the piece before it, so no line starts with one.
  return pieces.map((piece, i) => {
    const next = pieces[i + 1]
    return next === undefined ? piece : { ...piece, text: `${piece.text} ${next.kind === "places" ? "—" : "·"}` }
  })
}

/**
 * The label's content, "Bar · Fri 20 Aug 2027, 12:00–16:00 · Festival — 2 places left": its pieces as spans (the
 * stylesheet keeps the day and hours, and the places, on one line).
 */
const slotLabelContent = (slot: Slot): ReadonlyArray<Node> =>
  slotPieces(slot).flatMap((piece, i) => [
    ...(i === 0 ? [] : [document.createTextNode(" ")]),
    h("span", { class: `slot-${piece.kind}` }, piece.text)
  ])

export interface SlotPicker {
  readonly group: HTMLFieldSetElement
  readonly inputs: ReadonlyArray<HTMLInputElement>
  readonly read: () => ReadonlyArray<string>
  readonly write: (value: unknown) => void
  /** Shows the places of a fresher list (after a 422 `full`): labels, and full slots disabled unless chosen. */
  readonly refresh: (slots: ReadonlyArray<Slot>) => void
}

/** The checkboxes of `slots` in a fieldset whose legend is `legend`; ids are `${id}-${i}`. */
export const slotPicker = (
  id: string,
  legend: ReadonlyArray<Node | string | null>,
  slots: ReadonlyArray<Slot>
): SlotPicker => {
  // A full slot with a waitlist stays open: choosing it joins the waitlist.
  const isFull = (slot: Slot) =>
    (slot.remaining !== null && slot.remaining !== undefined && slot.remaining <= 0 && !joinsWaitlist(slot)) ||
    closedText(slot, Date.now()) !== undefined
  const full = slots.map(isFull)
  const labels = slots.map((slot, i) => h("label", { for: `${id}-${i}` }, ...slotLabelContent(slot)))
  const inputs = slots.map((slot, i) =>
    h("input", { type: "checkbox", id: `${id}-${i}`, name: id, value: slot.id, disabled: full[i] === true })
  )
  const group = h(
    "fieldset",
    { class: "group slots" },
    h("legend", {}, ...legend),
    ...(slots.length === 0 ? [h("p", { class: "sub" }, "No time slots are open.")] : []),
    ...slots.map((_, i) =>
      h(
        "div",
        { class: full[i] === true ? "choice full" : "choice" },
        inputs[i] ?? null,
        labels[i] ?? null
      )
    )
  )
  // A group of checkboxes takes no aria-required (axe: aria-allowed-attr): the legend's * says it, like other checkbox groups.
  const read = () => inputs.filter((box) => box.checked).map((box) => box.value)
  const write = (value: unknown) => {
    const wanted = new Set((Array.isArray(value) ? value : [value]).filter((v) => typeof v === "string"))
    inputs.forEach((box, i) => {
      box.checked = wanted.has(box.value)
      box.disabled = full[i] === true && !box.checked
    })
  }
  const refresh = (fresh: ReadonlyArray<Slot>) => {
    const byId = new Map(fresh.map((slot) => [slot.id, slot]))
    inputs.forEach((box, i) => {
      const slot = byId.get(box.value)
      const label = labels[i]
      if (slot === undefined || label === undefined) return
      full[i] = isFull(slot)
      label.replaceChildren(...slotLabelContent(slot))
      box.disabled = full[i] === true && !box.checked
    })
  }
  return { group, inputs, read, write, refresh }
}

type Caller = (url: string) => Promise<{ readonly kind: string; readonly data?: unknown }>

/** The form's time-slots list (one request); a list that cannot be read is empty (the server still checks every choice). */
export const fetchSlots = async (api: string, call: Caller): Promise<ReadonlyArray<Slot>> => {
  const answer = await call(`${api}/time-slots`)
  return answer.kind === "ok" && Array.isArray(answer.data) ? answer.data.filter(isSlot) : []
}

/** The form's slots when one of `fields` is a `time_slots` field, else none (no request). */
export const loadSlots = (
  api: string,
  fields: ReadonlyArray<{ readonly type: string }>,
  call: Caller
): Promise<ReadonlyArray<Slot>> =>
  fields.some((field) => field.type === "time_slots") ? fetchSlots(api, call) : Promise.resolve([])
