/** The time-zone checks of the organiser conformance suite (CONTRACT §22): instants stored, inherited, recomputed. */
import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { OrganiserAccess } from "../../../organiser/catalog/OrganiserAccess.js"
import { OrganiserCatalog } from "../../../organiser/catalog/OrganiserCatalog.js"
import { failureTag, first, newActor, t0 } from "../organiserTestSupport.js"

type Check = Effect.Effect<void, unknown, OrganiserAccess | OrganiserCatalog>

const iso = (ms: number) => new Date(ms).toISOString()
const slotBody = (date: string, start_time: string, end_time: string) => ({ name: "Shift", date, start_time, end_time, capacity: null })

export const zoneChecks: Readonly<Record<string, Check>> = {
  "zones: a child inherits its parent's zone; slots store instants in it, across midnight and daylight-saving nights": Effect.gen(function*() {
    const catalog = yield* OrganiserCatalog
    const a = yield* newActor
    const fest = yield* catalog.createEvent(a, { name: "Fest", parent_event_id: null, timezone: "Europe/Amsterdam" }, t0)
    const day = yield* catalog.createEvent(a, { name: "Day", parent_event_id: fest.id }, t0)
    expect([fest.timezone, fest.effective_timezone, day.timezone, day.effective_timezone]).toEqual([
      "Europe/Amsterdam", "Europe/Amsterdam", null, "Europe/Amsterdam"
    ])
    const night = yield* catalog.createTimeSlot(a, day.id, slotBody("2027-08-20", "22:00", "02:00"), t0)
    expect([iso(night.starts_at), iso(night.ends_at)]).toEqual(["2027-08-20T20:00:00.000Z", "2027-08-21T00:00:00.000Z"])
    const spring = yield* catalog.createTimeSlot(a, fest.id, slotBody("2027-03-27", "22:00", "06:00"), t0)
    expect((spring.ends_at - spring.starts_at) / 3_600_000).toBe(7)
    expect(yield* failureTag(catalog.createTimeSlot(a, fest.id, slotBody("2027-03-28", "02:00", "03:00"), t0))).toBe("SlotTimesInvalid")
    expect(yield* failureTag(catalog.updateTimeSlot(a, night.id, { date: "2027-03-28", start_time: "02:00", end_time: "03:00" }, t0))).toBe("SlotTimesInvalid")
    // Nothing was written by the refused update.
    expect(Option.getOrThrow(yield* catalog.findTimeSlot(a.organisation_id, night.id)).date).toBe("2027-08-20")
    // The parent's zone moves: its slots and its child's move with it, in the same write.
    const moved = yield* catalog.updateEvent(a, fest.id, { timezone: "America/New_York" }, t0)
    expect(moved.effective_timezone).toBe("America/New_York")
    expect(Option.getOrThrow(yield* catalog.findEvent(a.organisation_id, day.id)).effective_timezone).toBe("America/New_York")
    const listed = (yield* catalog.listTimeSlots(a.organisation_id, day.id, first())).items
    expect(listed.map((s) => iso(s.starts_at))).toEqual(["2027-08-21T02:00:00.000Z"])
    // The child's own zone wins over its parent's.
    yield* catalog.updateEvent(a, day.id, { timezone: "Asia/Tokyo" }, t0)
    const own = Option.getOrThrow(yield* catalog.findTimeSlot(a.organisation_id, night.id))
    expect(iso(own.starts_at)).toBe("2027-08-20T13:00:00.000Z")
    // Back to the parent's zone (null), then to UTC: a top-level event without a zone is in UTC.
    yield* catalog.updateEvent(a, day.id, { timezone: null }, t0)
    yield* catalog.updateEvent(a, fest.id, { timezone: null }, t0)
    expect(iso(Option.getOrThrow(yield* catalog.findTimeSlot(a.organisation_id, night.id)).starts_at)).toBe("2027-08-20T22:00:00.000Z")
  }),
  "sign-up windows: stored as given (null by default), patched, shown on the slot": Effect.gen(function*() {
    const catalog = yield* OrganiserCatalog
    const a = yield* newActor
    const fest = yield* catalog.createEvent(a, { name: "Fest", parent_event_id: null }, t0)
    const plain = yield* catalog.createTimeSlot(a, fest.id, slotBody("2027-08-20", "08:00", "12:00"), t0)
    expect([plain.signup_opens_at, plain.signup_closes_at]).toEqual([null, null])
    const opens = Date.parse("2027-06-01T10:00:00Z")
    const closes = Date.parse("2027-08-01T10:00:00Z")
    const windowed = yield* catalog.createTimeSlot(a, fest.id, { ...slotBody("2027-08-20", "08:00", "12:00"), signup_opens_at: opens, signup_closes_at: closes }, t0)
    expect([windowed.signup_opens_at, windowed.signup_closes_at]).toEqual([opens, closes])
    const patched = yield* catalog.updateTimeSlot(a, windowed.id, { signup_closes_at: null }, t0)
    expect([patched.signup_opens_at, patched.signup_closes_at]).toEqual([opens, null])
    expect(Option.getOrThrow(yield* catalog.findTimeSlot(a.organisation_id, windowed.id)).signup_opens_at).toBe(opens)
  }),
  "zones: a zone change that would leave a slot ending before it starts is refused, nothing written": Effect.gen(function*() {
    const catalog = yield* OrganiserCatalog
    const a = yield* newActor
    const fest = yield* catalog.createEvent(a, { name: "Fest", parent_event_id: null }, t0)
    // 02:00–03:00 on Amsterdam's spring-forward night is a valid hour in UTC.
    const slot = yield* catalog.createTimeSlot(a, fest.id, slotBody("2027-03-28", "02:00", "03:00"), t0)
    expect(yield* failureTag(catalog.updateEvent(a, fest.id, { timezone: "Europe/Amsterdam" }, t0))).toBe("SlotTimesInvalid")
    expect(Option.getOrThrow(yield* catalog.findEvent(a.organisation_id, fest.id)).timezone).toBe(null)
    expect(iso(Option.getOrThrow(yield* catalog.findTimeSlot(a.organisation_id, slot.id)).starts_at)).toBe("2027-03-28T02:00:00.000Z")
  })
}
