import fc from "fast-check"
import { describe, expect, it } from "@effect/vitest"
import { effectiveTimeZone, instantHours, slotInstants } from "./slotInstants.js"
import { instantOf, offsetAt, timeZoneName, utcMs, wallAt } from "./zonedTime.js"

const iso = (ms: number) => new Date(ms).toISOString()
const instants = (date: string, start_time: string, end_time: string, zone: string) => {
  const found = slotInstants({ date, start_time, end_time }, zone)
  return found === undefined ? undefined : { starts_at: iso(found.starts_at), ends_at: iso(found.ends_at), hours: instantHours(found) }
}

describe("slot instants in the event's zone", () => {
  it("a summer slot in Amsterdam is two hours ahead of UTC", () => {
    expect(instants("2027-08-20", "08:00", "12:00", "Europe/Amsterdam")).toEqual({
      starts_at: "2027-08-20T06:00:00.000Z",
      ends_at: "2027-08-20T10:00:00.000Z",
      hours: 4
    })
  })

  it("a slot across midnight ends the next day", () => {
    expect(instants("2027-08-20", "22:00", "02:00", "Europe/Amsterdam")).toEqual({
      starts_at: "2027-08-20T20:00:00.000Z",
      ends_at: "2027-08-21T00:00:00.000Z",
      hours: 4
    })
  })

  it("02:00–03:00 on the spring-forward night: both ends resolve to 01:00Z, so the slot has no instants", () => {
    // 02:00 is in the gap and moves forward to 03:00 CEST (01:00Z); 03:00 is 03:00 CEST (01:00Z).
    expect(instants("2027-03-28", "02:00", "03:00", "Europe/Amsterdam")).toBeUndefined()
  })

  it("01:00–04:00 on the spring-forward night lasts 2 hours; 22:00–06:00 across it lasts 7", () => {
    expect(instants("2027-03-28", "01:00", "04:00", "Europe/Amsterdam")).toEqual({
      starts_at: "2027-03-28T00:00:00.000Z",
      ends_at: "2027-03-28T02:00:00.000Z",
      hours: 2
    })
    expect(instants("2027-03-27", "22:00", "06:00", "Europe/Amsterdam")?.hours).toBe(7)
  })

  it("02:30 in the gap moves forward by the gap (03:30 CEST)", () => {
    expect(instants("2027-03-28", "02:30", "05:00", "Europe/Amsterdam")?.starts_at).toBe("2027-03-28T01:30:00.000Z")
  })

  it("the repeated hour of the fall-back night takes the earlier instant; 00:00–00:00 lasts 25 hours", () => {
    expect(instants("2027-10-31", "02:30", "04:00", "Europe/Amsterdam")).toEqual({
      starts_at: "2027-10-31T00:30:00.000Z",
      ends_at: "2027-10-31T03:00:00.000Z",
      hours: 2.5
    })
    expect(instants("2027-10-31", "00:00", "00:00", "Europe/Amsterdam")?.hours).toBe(25)
    expect(instants("2027-03-28", "00:00", "00:00", "Europe/Amsterdam")?.hours).toBe(23)
  })

  it("the southern hemisphere and a half-hour zone", () => {
    expect(instants("2027-04-04", "02:30", "03:30", "Australia/Sydney")?.starts_at).toBe("2027-04-03T15:30:00.000Z")
    expect(instants("2027-08-20", "08:00", "09:00", "Asia/Kolkata")?.starts_at).toBe("2027-08-20T02:30:00.000Z")
  })

  it("unreadable dates or times have no instants", () => {
    expect(slotInstants({ date: "2027-8-20", start_time: "08:00", end_time: "09:00" }, "UTC")).toBeUndefined()
    expect(slotInstants({ date: "2027-08-20", start_time: "8h", end_time: "09:00" }, "UTC")).toBeUndefined()
  })

  it("years below 100 are not read as 19xx", () => {
    expect(iso(utcMs(5, 1, 1))).toBe("0005-01-01T00:00:00.000Z")
  })
})

describe("time zone names", () => {
  it.each([
    ["Europe/Amsterdam", "Europe/Amsterdam"],
    ["europe/amsterdam", "Europe/Amsterdam"],
    ["UTC", "UTC"],
    ["US/Pacific", "US/Pacific"]
  ])("%s is %s", (given, stored) => {
    expect(timeZoneName(given)).toBe(stored)
  })
  it.each(["Nope/Zone", "+01:00", "", "x".repeat(65), 3, null, "Europe/Amsterdam\u0000"])("%j is refused", (given) => {
    expect(timeZoneName(given)).toBeUndefined()
  })
  it("a child without a zone takes its parent's, a top-level event UTC", () => {
    expect(effectiveTimeZone(null, "Europe/Amsterdam")).toBe("Europe/Amsterdam")
    expect(effectiveTimeZone("Asia/Tokyo", "Europe/Amsterdam")).toBe("Asia/Tokyo")
    expect(effectiveTimeZone(null, null)).toBe("UTC")
  })
})

const zones = fc.constantFrom("Europe/Amsterdam", "America/New_York", "Australia/Lord_Howe", "America/Santiago", "Asia/Kolkata", "UTC", "Pacific/Chatham")
const minute = 60_000
/** Instants from 2020 to 2035, on whole minutes. */
const instant = fc.integer({ min: 26_297_280, max: 34_715_520 }).map((m) => m * minute)

describe("zone conversion around daylight-saving changes (properties)", () => {
  it("an instant's wall time converts back to the instant, or to the earlier one of a repeated hour", () => {
    fc.assert(fc.property(zones, instant, (zone, at) => {
      const back = instantOf(zone, wallAt(zone, at))
      expect(wallAt(zone, back)).toBe(wallAt(zone, at))
      expect(back).toBeLessThanOrEqual(at)
      // Only a repeated hour gives an earlier instant, at most an offset change earlier.
      if (back < at) expect(offsetAt(zone, back)).toBeGreaterThan(offsetAt(zone, at))
    }), { numRuns: 2000 })
  })

  it("a wall time converts to an instant showing it, or (in a gap) one showing it moved forward by the gap", () => {
    fc.assert(fc.property(zones, instant, (zone, wall) => {
      const at = instantOf(zone, wall)
      const shown = wallAt(zone, at)
      if (shown !== wall) {
        const gap = offsetAt(zone, at) - offsetAt(zone, at - 24 * 60 * minute)
        expect(gap).toBeGreaterThan(0)
        expect(shown).toBe(wall + gap)
      }
    }), { numRuns: 2000 })
  })

  it("a slot's instants are ordered, and whole-hour slots last their hours within the night's offset change", () => {
    fc.assert(fc.property(zones, instant, fc.integer({ min: 1, max: 23 }), (zone, wall, hours) => {
      const day = new Date(wall).toISOString().slice(0, 10)
      const start = new Date(wall).toISOString().slice(11, 16)
      const endWall = wall + hours * 60 * minute
      const end = new Date(endWall).toISOString().slice(11, 16)
      const found = slotInstants({ date: day, start_time: start, end_time: end }, zone)
      if (found === undefined) return
      expect(found.ends_at).toBeGreaterThan(found.starts_at)
      // A start or end in a spring-forward gap moved forward (the property above); the rest keep their wall times.
      if (wallAt(zone, found.starts_at) !== wall || wallAt(zone, found.ends_at) !== endWall) return
      const change = offsetAt(zone, found.ends_at) - offsetAt(zone, found.starts_at)
      expect(found.ends_at - found.starts_at).toBe(hours * 60 * minute - change)
    }), { numRuns: 1000 })
  })
})
