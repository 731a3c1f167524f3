/**
 * The rules of a `time_slots` field (CONTRACT §15, §22) after its shape passed: `in` (the form's own slots,
 * festival-aware), `closed` (sign-up windows), `min`/`max` (number of slots), `overlap` (interval arithmetic, midnight crossing), and at
 * submit `full`, each field's errors in that order. Pure: the slots come from the RegistrationData port
 * (before a submit) or from the submit's atomic step (the places already taken, `holders` counting them).
 */
import type { FieldError, FieldErrors } from "../rules/FieldErrors.js"
import type { SlotChoice } from "../rules/SlotChoice.js"
import type { ChosenSlot } from "./RegistrationData.js"
import { signupState, slotsClosedMessage } from "./signupWindow.js"
import { overlappingSlotIds } from "./slotIntervals.js"
import { placeFor } from "./placeArithmetic.js"
import { compareLabelledSlots, type LabelledSlot, slotLabel } from "./slotLabel.js"

/** How `full` is checked: not at all (saves), on holders read before the submit, or on the places just taken. */
export type FullCheck = "none" | "read" | "taken"

export const slotsInMessage = "Must be one of the form's time slots."
export const slotsOverlapMessage = "The chosen time slots overlap in time."
/** Names the full slots (in the order slots are listed), so the visitor knows which one to change. */
export const slotsFullMessage = (full: ReadonlyArray<LabelledSlot>): string => {
  const labels = [...full].sort(compareLabelledSlots).map(slotLabel)
  if (labels.length <= 1) return `The time slot ${labels[0] ?? ""} has no place left.`
  return `The time slots ${labels.slice(0, -1).join(", ")} and ${labels.at(-1) ?? ""} have no place left.`
}
const count = (n: number): string => `${n} time slot${n === 1 ? "" : "s"}`
export const slotsMinMessage = (n: number): string => `Choose at least ${count(n)}.`
export const slotsMaxMessage = (n: number): string => `Choose at most ${count(n)}.`

/**
 * A slot the form's `time-slots` route lists (CONTRACT §3): of the form's event, or of a child of it (events
 * nest one level, so a form whose event is a child lists its own slots only).
 */
export const isFormSlot = (formEventId: string | null, slot: ChosenSlot): boolean =>
  formEventId !== null && (slot.event_id === formEventId || slot.parent_event_id === formEventId)

/**
 * No place for this submission: with "taken", the place the store gave it (`full`: none); with "read", what a
 * submit now would get (a waitlist slot always has room on its waitlist).
 */
const isFull = (slot: ChosenSlot, check: FullCheck): boolean => {
  if (check === "none" || slot.capacity === null) return false
  if (check === "taken") return slot.place === undefined ? slot.holders > slot.capacity : slot.place === "full"
  return placeFor({ capacity: slot.capacity, waitlist: slot.waitlist, confirmed: slot.holders, waiting: slot.waitlisted }) === "full"
}

/**
 * One field's errors in rule order: in, closed (a chosen slot outside its sign-up window at `now`), min, max,
 * overlap, then full (only when every other rule passed).
 */
export const checkSlotChoice = (
  choice: SlotChoice,
  slots: ReadonlyMap<string, ChosenSlot>,
  formEventId: string | null,
  full: FullCheck,
  now: number
): ReadonlyArray<FieldError> | undefined => {
  const errors: Array<FieldError> = []
  const known: Array<ChosenSlot> = []
  for (const id of choice.ids) {
    const slot = slots.get(id)
    if (slot !== undefined && isFormSlot(formEventId, slot)) known.push(slot)
  }
  if (known.length < choice.ids.length) errors.push({ rule: "in", message: slotsInMessage })
  if (known.some((slot) => signupState(slot, now) !== "open")) errors.push({ rule: "closed", message: slotsClosedMessage })
  const n = choice.ids.length
  if (n < choice.min) errors.push({ rule: "min", message: slotsMinMessage(choice.min) })
  if (n > choice.max) errors.push({ rule: "max", message: slotsMaxMessage(choice.max) })
  if (overlappingSlotIds(known).length > 0) errors.push({ rule: "overlap", message: slotsOverlapMessage })
  const fullSlots = errors.length === 0 ? known.filter((slot) => isFull(slot, full)) : []
  if (fullSlots.length > 0) errors.push({ rule: "full", message: slotsFullMessage(fullSlots) })
  return errors.length === 0 ? undefined : errors
}

/** Every field's errors, by slug (null prototype); undefined when all choices pass. */
export const checkSlotChoices = (
  choices: ReadonlyArray<SlotChoice>,
  slots: ReadonlyArray<ChosenSlot>,
  formEventId: string | null,
  full: FullCheck,
  now: number
): FieldErrors | undefined => {
  const byId = new Map(slots.map((slot) => [slot.id, slot]))
  let out: Record<string, ReadonlyArray<FieldError>> | undefined
  for (const choice of choices) {
    const errors = checkSlotChoice(choice, byId, formEventId, full, now)
    if (errors !== undefined) (out ??= Object.create(null) as Record<string, ReadonlyArray<FieldError>>)[choice.slug] = errors
  }
  return out
}

/** The distinct ids of every choice, in code-unit order: the order places are locked and taken in. */
export const chosenSlotIds = (choices: ReadonlyArray<SlotChoice>): ReadonlyArray<string> =>
  [...new Set(choices.flatMap((choice) => choice.ids))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))

/**
 * `errors` with `extra` added, keys in the order of `slugs` (the schema's fields): a field's existing errors
 * come first, then its extra ones.
 */
export const mergeFieldErrors = (
  slugs: ReadonlyArray<string>,
  errors: FieldErrors | undefined,
  extra: FieldErrors | undefined
): FieldErrors | undefined => {
  if (extra === undefined) return errors
  const out = Object.create(null) as Record<string, ReadonlyArray<FieldError>>
  for (const slug of slugs) {
    const list = [...(errors?.[slug] ?? []), ...(extra[slug] ?? [])]
    if (list.length > 0) out[slug] = list
  }
  // Keys that are no field (body keys such as idempotency_key) keep their place after the fields.
  if (errors !== undefined) for (const key of Object.keys(errors)) if (!(key in out)) out[key] = errors[key] ?? []
  return out
}
