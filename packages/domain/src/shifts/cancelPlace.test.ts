import { describe, expect, it } from "@effect/vitest"
import { mayCancel, valuesWithoutSlot } from "./cancelPlace.js"

const start = Date.parse("2027-08-20T12:00:00.000Z")
const hour = 3_600_000

describe("mayCancel: a confirmed place until cancel_until_hours before the start, a waiting one until the start", () => {
  it.each([
    ["confirmed", 0, start - 1, true],
    ["confirmed", 0, start, false],
    ["confirmed", 24, start - 24 * hour - 1, true],
    ["confirmed", 24, start - 24 * hour, false],
    ["confirmed", 24, start - hour, false],
    ["waitlisted", 24, start - hour, true],
    ["waitlisted", 24, start, false],
    ["waitlisted", 0, start + hour, false],
    ["confirmed", 720, start - 721 * hour, true]
  ] as const)("%s, %d hours, at %d → %s", (status, hours, now, expected) => {
    expect(mayCancel({ status, starts_at: start }, hours, now)).toBe(expected)
  })
})

describe("valuesWithoutSlot", () => {
  it("takes the slot out of every time-slot field, an array or a single id, and leaves the rest", () => {
    const values = { shifts: ["a", "b"], more: "b", other: "b", note: "x" }
    expect(valuesWithoutSlot(values, ["shifts", "more", "absent"], "b")).toEqual({ shifts: ["a"], more: [], other: "b", note: "x" })
    expect(valuesWithoutSlot(values, ["shifts"], "c")).toEqual(values)
    // A fresh map: the stored one is never changed.
    expect(values.shifts).toEqual(["a", "b"])
  })
})
