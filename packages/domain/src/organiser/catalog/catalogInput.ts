/** The member checks of the catalog's bodies (CONTRACT §12): events, time slots, event sections. */
import { Result } from "effect"
import type { Body } from "../../rules/bodyChecks.js"
import { dateKey } from "../../rules/dates.js"
import type { FieldErrors } from "../../rules/FieldErrors.js"
import { timeZoneName } from "../../shifts/zonedTime.js"
import type { EventInput, EventPatch, SectionInput, SectionPatch, SlotInput, SlotPatch } from "./CatalogModel.js"
import { type Check, checkBody, memberMessages, nameCheck, positionCheck, type Spec, str } from "./memberChecks.js"

const idOrNull: Check<string | null> = (value, path, c) =>
  value === null || (typeof value === "string" && value.length > 0 && value.length <= 255 && !value.includes("\u0000"))
    ? value
    : void c.add(path, "invalid", memberMessages.invalid)

const datePattern = /^\d{4}-\d{2}-\d{2}$/
/** 0001-01-01: PostgreSQL's `date` has no year 0, so an earlier one could never be stored. */
const firstDateKey = 10101
const dateCheck: Check<string> = (value, path, c) =>
  typeof value === "string" && datePattern.test(value) && dateKey(value) >= firstDateKey
    ? value
    : void c.add(path, "invalid", "A calendar date YYYY-MM-DD is expected.")

const timePattern = /^([01]\d|2[0-3]):[0-5]\d$/
const timeCheck: Check<string> = (value, path, c) =>
  typeof value === "string" && timePattern.test(value) ? value : void c.add(path, "invalid", "A time HH:MM (00:00 to 23:59) is expected.")

/** Room for any real shift; the column is a 32-bit integer. */
const maxCapacity = 1_000_000
const capacityCheck: Check<number | null> = (value, path, c) =>
  value === null || (typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= maxCapacity)
    ? value
    : void c.add(path, "invalid", "A positive integer or null is expected.")

const timestampPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/
/** An RFC 3339 date-time with a zone, as epoch ms, or null. */
const instantCheck: Check<number | null> = (value, path, c) => {
  if (value === null) return null
  const ms = typeof value === "string" && timestampPattern.test(value) ? Date.parse(value) : NaN
  return Number.isFinite(ms) ? ms : void c.add(path, "invalid", "An RFC 3339 date-time with a zone, or null, is expected.")
}

const booleanCheck: Check<boolean> = (value, path, c) =>
  typeof value === "boolean" ? value : void c.add(path, "invalid", memberMessages.invalid)

/** An IANA time-zone name the platform knows (spelled as its data does), or null (CONTRACT §22). */
const timeZoneCheck: Check<string | null> = (value, path, c) => {
  if (value === null) return null
  return timeZoneName(value) ?? void c.add(path, "invalid", "An IANA time-zone name (such as Europe/Amsterdam) or null is expected.")
}

const eventSpec: Spec = { name: nameCheck, parent_event_id: idOrNull, timezone: timeZoneCheck }
const slotSpec: Spec = {
  name: nameCheck,
  date: dateCheck,
  start_time: timeCheck,
  end_time: timeCheck,
  capacity: capacityCheck,
  signup_opens_at: instantCheck,
  signup_closes_at: instantCheck,
  waitlist: booleanCheck
}
const sectionSpec: Spec = {
  name: nameCheck,
  type: nameCheck,
  show_in_registration: booleanCheck,
  position: positionCheck
}

export const eventInput = (body: Body): Result.Result<EventInput, FieldErrors> =>
  Result.map(checkBody(body, eventSpec, ["name"]), (m) => ({
    name: str(m, "name"),
    parent_event_id: typeof m["parent_event_id"] === "string" ? m["parent_event_id"] : null,
    timezone: typeof m["timezone"] === "string" ? m["timezone"] : null
  }))

export const eventPatch = (body: Body): Result.Result<EventPatch, FieldErrors> =>
  Result.map(checkBody(body, eventSpec, []), (m) => m as EventPatch)

export const slotInput = (body: Body): Result.Result<SlotInput, FieldErrors> =>
  Result.map(checkBody(body, slotSpec, ["name", "date", "start_time", "end_time"]), (m) => ({
    name: str(m, "name"),
    date: str(m, "date"),
    start_time: str(m, "start_time"),
    end_time: str(m, "end_time"),
    capacity: typeof m["capacity"] === "number" ? m["capacity"] : null,
    signup_opens_at: typeof m["signup_opens_at"] === "number" ? m["signup_opens_at"] : null,
    signup_closes_at: typeof m["signup_closes_at"] === "number" ? m["signup_closes_at"] : null,
    waitlist: m["waitlist"] === true
  }))

/** A waitlist needs a capacity (CONTRACT §22): the 422 of a slot that would have one without. */
export const waitlistProblem = (slot: { readonly waitlist?: boolean | undefined; readonly capacity: number | null }) =>
  slot.waitlist === true && slot.capacity === null
    ? { waitlist: [{ rule: "invalid" as const, message: "A waitlist needs a capacity." }] }
    : undefined

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
