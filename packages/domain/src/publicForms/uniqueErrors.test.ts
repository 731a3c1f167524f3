import { describe, expect, it } from "@effect/vitest"
import { withUniqueErrors } from "./uniqueErrors.js"

describe("withUniqueErrors", () => {
  it("nothing taken leaves the errors as they are", () => {
    expect(withUniqueErrors(undefined, [])).toBeUndefined()
    const errors = { age: [{ rule: "min" as const, message: "m" }] }
    expect(withUniqueErrors(errors, [])).toBe(errors)
  })

  it("adds `unique` to each taken slug, after the field's other errors, once", () => {
    const merged = withUniqueErrors({ age: [{ rule: "min", message: "m" }] }, ["email", "email"])
    expect({ ...merged }).toEqual({
      age: [{ rule: "min", message: "m" }],
      email: [{ rule: "unique", message: "This value has already been used." }]
    })
    expect(Object.getPrototypeOf(merged)).toBeNull()
  })
})
