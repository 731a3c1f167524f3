import { describe, expect, it } from "@effect/vitest"
import { remainingPlaces } from "./TimeSlot.js"

describe("remainingPlaces", () => {
  it.each([
    [null, 5, null],
    [7, 0, 7],
    [7, 6, 1],
    [7, 7, 0],
    [3, 5, 0]
  ])("capacity %s with %s holders leaves %s", (capacity, holders, expected) => {
    expect(remainingPlaces(capacity, holders)).toBe(expected)
  })
})
