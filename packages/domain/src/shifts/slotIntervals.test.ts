import fc from "fast-check"
import { describe, expect, it } from "@effect/vitest"
import { intervalsOverlap, overlappingSlotIds, slotInterval } from "./slotIntervals.js"
import { durationHours } from "./slotTimes.js"

const hhmm = fc.tuple(fc.integer({ min: 0, max: 23 }), fc.constantFrom(0, 15, 30, 45)).map(([h, m]) =>
  `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}`
)
const day = fc.integer({ min: 1, max: 5 }).map((d) => `2027-08-${String(d).padStart(2, "0")}`)
const slot = fc.record({ date: day, start_time: hhmm, end_time: hhmm })
const slots = fc.array(slot, { maxLength: 8 }).map((list) => list.map((s, i) => ({ ...s, id: `ts-${i}` })))

const interval = (s: { date: string; start_time: string; end_time: string }) => {
  const found = slotInterval(s)
  if (found === undefined) throw new Error(`unreadable ${JSON.stringify(s)}`)
  return found
}

describe("slot intervals (CONTRACT §15 overlap)", () => {
  it.each([
    ["08:00–12:00 and 12:00–16:00 only touch", { start_time: "08:00", end_time: "12:00" }, { start_time: "12:00", end_time: "16:00" }, false],
    ["08:00–12:00 and 11:59–13:00 overlap", { start_time: "08:00", end_time: "12:00" }, { start_time: "11:59", end_time: "13:00" }, true],
    ["22:00–02:00 runs into the next morning's 01:00–03:00", { start_time: "22:00", end_time: "02:00" }, { date: "2027-08-21", start_time: "01:00", end_time: "03:00" }, true],
    ["22:00–02:00 touches the next day's 02:00–06:00", { start_time: "22:00", end_time: "02:00" }, { date: "2027-08-21", start_time: "02:00", end_time: "06:00" }, false],
    ["08:00–08:00 is 24 hours: it overlaps the next day's 07:00", { start_time: "08:00", end_time: "08:00" }, { date: "2027-08-21", start_time: "07:00", end_time: "07:30" }, true],
    ["the same hours on two days do not overlap", { start_time: "08:00", end_time: "12:00" }, { date: "2027-08-21", start_time: "08:00", end_time: "12:00" }, false]
  ])("%s", (_, a, b, expected) => {
    const base = { date: "2027-08-20" }
    expect(intervalsOverlap(interval({ ...base, ...a }), interval({ ...base, ...b }))).toBe(expected)
  })

  it("overlap is symmetric, a slot overlaps itself, touching slots never overlap", () => {
    fc.assert(fc.property(slot, slot, (a, b) => {
      const [x, y] = [interval(a), interval(b)]
      expect(intervalsOverlap(x, y)).toBe(intervalsOverlap(y, x))
      expect(intervalsOverlap(x, x)).toBe(true)
      expect(intervalsOverlap(x, { start: x.end, end: x.end + 60 })).toBe(false)
      expect(intervalsOverlap({ start: x.start - 60, end: x.start }, x)).toBe(false)
    }))
  })

  it("an interval's length agrees with duration_hours, midnight crossings included", () => {
    fc.assert(fc.property(slot, (s) => {
      const { start, end } = interval(s)
      expect(Math.round(((end - start) / 60) * 100) / 100).toBe(durationHours(s.start_time, s.end_time))
      expect(end).toBeGreaterThan(start)
    }))
  })

  it("overlappingSlotIds names exactly the slots that overlap another, as a brute force does", () => {
    fc.assert(fc.property(slots, (list) => {
      const brute = list.filter((a) => list.some((b) => b.id !== a.id && intervalsOverlap(interval(a), interval(b))))
      const spans = list.map((s) => ({ id: s.id, starts_at: interval(s).start, ends_at: interval(s).end }))
      expect(overlappingSlotIds(spans)).toEqual(brute.map((s) => s.id))
    }))
  })
})
