import { describe, expect, it } from "@effect/vitest"
import { Result } from "effect"
import { definitionInput, formPatchInput } from "./formInput.js"

const base = { name: "Instants", type: "registration", event_id: null, sections: [], fields: [] }
const problemsAt = (result: Result.Result<unknown, Record<string, ReadonlyArray<{ readonly rule: string }>>>) =>
  Result.isFailure(result)
    ? Object.entries(result.failure).flatMap(([path, errors]) => errors.map((e) => `${path} ${e.rule}`))
    : []

describe("a form's opens_at and closes_at", () => {
  it("refuses instants no store can hold (before year 0001 or after 9999 in UTC) as invalid", () => {
    const early = "0001-01-01T00:00:00+05:00"
    const late = "9999-12-31T23:59:59-01:00"
    expect(problemsAt(definitionInput({ ...base, opens_at: early, closes_at: late }))).toEqual([
      "opens_at invalid",
      "closes_at invalid"
    ])
    expect(problemsAt(formPatchInput({ opens_at: early }))).toEqual(["opens_at invalid"])
  })

  it("takes the first and the last instant a store holds", () => {
    const result = definitionInput({ ...base, opens_at: "0001-01-01T00:00:00Z", closes_at: "9999-12-31T23:59:59Z" })
    expect(Result.isSuccess(result)).toBe(true)
  })
})
