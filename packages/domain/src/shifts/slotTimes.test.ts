import fc from "fast-check"
import { describe, expect, it } from "@effect/vitest"
import { durationHours, formatTime } from "./slotTimes.js"

describe("durationHours", () => {
  it.each([
    { start: "08:00", end: "12:00", hours: 4 },
    { start: "22:00", end: "02:00", hours: 4 },
    { start: "06:00", end: "06:00", hours: 24 },
    { start: "00:00", end: "00:00", hours: 24 },
    { start: "08:00", end: "08:20", hours: 0.33 },
    { start: "08:00", end: "08:40", hours: 0.67 },
    { start: "14:30", end: "18:45", hours: 4.25 },
    { start: "23:59", end: "00:00", hours: 0.02 },
    { start: "00:00", end: "23:59", hours: 23.98 },
    { start: "08:00:00", end: "12:30:00", hours: 4.5 },
    { start: "8:00", end: "9:15", hours: 1.25 },
    { start: "12:00", end: "08:00", hours: 20 }
  ])("$start–$end is $hours h", ({ end, hours, start }) => {
    expect(durationHours(start, end)).toBe(hours)
  })

  it("property: always in (0, 24] with at most two decimals", () => {
    const time = fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 })).map(([h, m]) =>
      `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}`
    )
    fc.assert(
      fc.property(time, time, (start, end) => {
        const hours = durationHours(start, end)
        expect(hours).toBeGreaterThan(0)
        expect(hours).toBeLessThanOrEqual(24)
        expect(Math.round(hours * 100) / 100).toBe(hours)
        expect(start === end ? hours === 24 : hours < 24).toBe(true)
      })
    )
  })
})

describe("formatTime", () => {
  it.each([
    ["08:00", "08:00"],
    ["08:00:00", "08:00"],
    ["8:05", "08:05"],
    ["23:59:59.5", "23:59"],
    ["nonsense", "nonsense"]
  ])("%s → %s", (input, output) => {
    expect(formatTime(input)).toBe(output)
  })
})
