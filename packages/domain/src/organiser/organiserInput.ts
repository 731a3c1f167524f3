/**
 * Member-by-member checks of organiser bodies (CONTRACT §12): 422 fields keyed by the member's dotted
 * path; missing → `required`, wrong type, malformed value or unknown member → `invalid`, too long → `max`.
 */
import { Result } from "effect"
import type { FieldError, FieldErrors, RuleName } from "../rules/FieldErrors.js"
import { dateKey } from "../rules/dates.js"
import type { EngagementInput, EventInput, EventPatch, SectionInput, SectionPatch, SlotInput, SlotPatch } from "./OrganiserModel.js"

export type Body = Readonly<Record<string, unknown>>

/** Longest name, in Unicode code points. */
export const maxNameLength = 200
/** Most advance sections one engagement may be created with. */
export const maxAdvanceSections = 100

const messages: Record<string, string> = {
  required: "This member is required.",
  invalid: "This member has the wrong type or form.",
  unknown: "This member is not known.",
  max: `At most ${maxNameLength} characters.`,
  date: "A calendar date YYYY-MM-DD is expected.",
  time: "A time HH:MM (00:00 to 23:59) is expected.",
  capacity: "A positive integer or null is expected.",
  position: "An integer is expected.",
  name: "A non-empty string is expected.",
  id: "A non-empty id string is expected.",
  object: "An object is expected.",
  list: "An array is expected.",
  many: `At most ${maxAdvanceSections} items.`
}

class Collector {
  readonly errors: Record<string, Array<FieldError>> = Object.create(null) as Record<string, Array<FieldError>>
  add(path: string, rule: RuleName, message: keyof typeof messages): void {
    this.addError(path, { rule, message: messages[message] ?? message })
  }
  addError(path: string, error: FieldError): void {
    const list = this.errors[path] ?? []
    list.push(error)
    Object.defineProperty(this.errors, path, { value: list, enumerable: true, writable: true })
  }
  result<A>(value: A): Result.Result<A, FieldErrors> {
    return Object.keys(this.errors).length === 0 ? Result.succeed(value) : Result.fail(this.errors)
  }
}

type Check<A> = (value: unknown, path: string, c: Collector) => A | undefined

const has = (body: Body, key: string): boolean => Object.prototype.hasOwnProperty.call(body, key)

const codePoints = (s: string): number => {
  let n = 0
  for (const _ of s) n++
  return n
}

/** A name: a string, not empty after trimming, at most 200 code points (stored as sent). */
// PostgreSQL text cannot hold U+0000: such a string could never be stored, so it is malformed.
export const nameCheck: Check<string> = (value, path, c) => {
  if (typeof value !== "string" || value.includes("\u0000")) return void c.add(path, "invalid", "name")
  if (value.trim() === "") return void c.add(path, "required", "required")
  if (codePoints(value) > maxNameLength) return void c.add(path, "max", "max")
  return value
}

const idOrNull: Check<string | null> = (value, path, c) =>
  value === null || (typeof value === "string" && value.length > 0 && value.length <= 255 && !value.includes("\u0000"))
    ? value
    : void c.add(path, "invalid", "invalid")

const datePattern = /^\d{4}-\d{2}-\d{2}$/
/** 0001-01-01: PostgreSQL's `date` has no year 0, so an earlier one could never be stored. */
const firstDateKey = 10101
const dateCheck: Check<string> = (value, path, c) =>
  typeof value === "string" && datePattern.test(value) && dateKey(value) >= firstDateKey ? value : void c.add(path, "invalid", "date")

const timePattern = /^([01]\d|2[0-3]):[0-5]\d$/
const timeCheck: Check<string> = (value, path, c) =>
  typeof value === "string" && timePattern.test(value) ? value : void c.add(path, "invalid", "time")

/** Room for any real shift; the column is a 32-bit integer. */
const maxCapacity = 1_000_000
const capacityCheck: Check<number | null> = (value, path, c) =>
  value === null || (typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= maxCapacity)
    ? value
    : void c.add(path, "invalid", "capacity")

const maxPosition = 1_000_000_000
const positionCheck: Check<number> = (value, path, c) =>
  typeof value === "number" && Number.isInteger(value) && Math.abs(value) <= maxPosition
    ? value
    : void c.add(path, "invalid", "position")

const booleanCheck: Check<boolean> = (value, path, c) =>
  typeof value === "boolean" ? value : void c.add(path, "invalid", "invalid")

type Spec = Readonly<Record<string, Check<unknown>>>

/**
 * Checks every member of `body` against `spec`: unknown members are `invalid`; with `required`, the
 * listed members must be present. Returns the checked members present in the body.
 */
const checkBody = (
  body: Body,
  spec: Spec,
  required: ReadonlyArray<string>
): Result.Result<Record<string, unknown>, FieldErrors> => {
  const c = new Collector()
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>
  for (const key of Object.keys(body)) {
    const check = Object.prototype.hasOwnProperty.call(spec, key) ? spec[key] : undefined
    if (check === undefined) {
      c.add(key, "invalid", "unknown")
      continue
    }
    const checked = check(body[key], key, c)
    if (checked !== undefined) out[key] = checked
  }
  for (const key of required) if (!has(body, key)) c.add(key, "required", "required")
  return c.result(out)
}

const eventSpec: Spec = { name: nameCheck, parent_event_id: idOrNull }
const slotSpec: Spec = {
  name: nameCheck,
  date: dateCheck,
  start_time: timeCheck,
  end_time: timeCheck,
  capacity: capacityCheck
}
const sectionSpec: Spec = {
  name: nameCheck,
  type: nameCheck,
  show_in_registration: booleanCheck,
  position: positionCheck
}

const str = (m: Record<string, unknown>, key: string): string => String(m[key])

export const eventInput = (body: Body): Result.Result<EventInput, FieldErrors> =>
  Result.map(checkBody(body, eventSpec, ["name"]), (m) => ({
    name: str(m, "name"),
    parent_event_id: typeof m["parent_event_id"] === "string" ? m["parent_event_id"] : null
  }))

export const eventPatch = (body: Body): Result.Result<EventPatch, FieldErrors> =>
  Result.map(checkBody(body, eventSpec, []), (m) => m as EventPatch)

export const slotInput = (body: Body): Result.Result<SlotInput, FieldErrors> =>
  Result.map(checkBody(body, slotSpec, ["name", "date", "start_time", "end_time"]), (m) => ({
    name: str(m, "name"),
    date: str(m, "date"),
    start_time: str(m, "start_time"),
    end_time: str(m, "end_time"),
    capacity: typeof m["capacity"] === "number" ? m["capacity"] : null
  }))

export const slotPatch = (body: Body): Result.Result<SlotPatch, FieldErrors> =>
  Result.map(checkBody(body, slotSpec, []), (m) => m as SlotPatch)

export const sectionInput = (body: Body): Result.Result<SectionInput, FieldErrors> =>
  Result.map(checkBody(body, sectionSpec, ["name"]), (m) => ({
    name: str(m, "name"),
    type: typeof m["type"] === "string" ? m["type"] : "standard",
    show_in_registration: typeof m["show_in_registration"] === "boolean" ? m["show_in_registration"] : true,
    position: typeof m["position"] === "number" ? m["position"] : 0
  }))

export const sectionPatch = (body: Body): Result.Result<SectionPatch, FieldErrors> =>
  Result.map(checkBody(body, sectionSpec, []), (m) => m as SectionPatch)

export const artistInput = (body: Body): Result.Result<{ readonly name: string }, FieldErrors> =>
  Result.map(checkBody(body, { name: nameCheck }, ["name"]), (m) => ({ name: str(m, "name") }))

const idCheck: Check<string> = (value, path, c) =>
  typeof value === "string" && value.length > 0 && value.length <= 255 && !value.includes("\u0000")
    ? value
    : void c.add(path, "invalid", "id")

const advanceSectionSpec: Spec = { name: nameCheck, position: positionCheck }

/** `advance_sections`: an array of at most 100 `{ name, position }`, each member checked at its dotted path. */
const advanceSectionsCheck: Check<ReadonlyArray<{ readonly name: string; readonly position: number }>> = (value, path, c) => {
  if (!Array.isArray(value)) return void c.add(path, "invalid", "list")
  if (value.length > maxAdvanceSections) return void c.add(path, "max", "many")
  const out: Array<{ readonly name: string; readonly position: number }> = []
  value.forEach((item: unknown, index) => {
    const at = `${path}.${index}`
    if (typeof item !== "object" || item === null || Array.isArray(item)) return void c.add(at, "invalid", "object")
    const checked = checkBody(item as Body, advanceSectionSpec, ["name", "position"])
    if (Result.isFailure(checked)) {
      for (const [key, errors] of Object.entries(checked.failure)) for (const e of errors) c.addError(`${at}.${key}`, e)
      return
    }
    out.push({ name: str(checked.success, "name"), position: Number(checked.success["position"]) })
  })
  return out
}

const engagementSpec: Spec = { event_id: idCheck, master_artist_id: idCheck, advance_sections: advanceSectionsCheck }

export const engagementInput = (body: Body): Result.Result<EngagementInput, FieldErrors> =>
  Result.map(checkBody(body, engagementSpec, ["event_id", "master_artist_id", "advance_sections"]), (m) => ({
    event_id: str(m, "event_id"),
    master_artist_id: str(m, "master_artist_id"),
    advance_sections: m["advance_sections"] as EngagementInput["advance_sections"]
  }))
