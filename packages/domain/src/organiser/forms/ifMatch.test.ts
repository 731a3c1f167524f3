import { describe, expect, it } from "@effect/vitest"
import { etagOf, preconditionOf } from "./ifMatch.js"

describe("If-Match", () => {
  it.each([
    ["*", 3, "any"],
    ['"3"', 3, 3],
    ['"2", "3"', 3, 3],
    ['"2"', 3, undefined],
    ['W/"3"', 3, undefined],
    ["3", 3, undefined],
    ['"03"', 3, undefined],
    ["", 3, undefined]
  ] as const)("%j against revision %i", (header, current, expected) => expect(preconditionOf(header, current)).toBe(expected))

  it("the ETag is the strong tag of the revision", () => expect(etagOf(12)).toBe('"12"'))
})
