import { describe, expect, it } from "@effect/vitest"
import type { FormField, ValidationRules } from "../../forms/FormField.js"
import { checkFieldDefinitions } from "./checkFields.js"

let n = 0
const field = (slug: string, type = "text", rules: ValidationRules | null = null): FormField => ({
  id: `f-${slug}-${++n}`,
  section_id: null,
  slug,
  label: slug,
  type,
  is_required: false,
  options: null,
  validation_rules: rules,
  is_unique: false,
  position: 1,
  maps_to: null
})

describe("checkFieldDefinitions", () => {
  it("accepts well-formed fields", () =>
    expect(checkFieldDefinitions([
      field("email", "email"),
      field("age", "numeric", { min: 18, max: "1e3" }),
      field("arrival", "date", { min: "2027-08-01", max: "2027-08-31T12:00:00Z" }),
      field("code", "text", { min: 2, max: "6", regex: "/[a-z]+/i" }),
      field("path", "text", { regex: "/usr/bin" })
    ])).toEqual([]))

  it.each([
    ["a slug with capitals", [field("Email")], /slug must match/],
    ["a slug starting with a digit", [field("1a")], /slug must match/],
    ["a slug of 65 characters", [field(`a${"b".repeat(64)}`)], /slug must match/],
    ["a duplicate slug", [field("a"), field("a"), field("a")], /used by more than one field/],
    ["a regex that does not compile", [field("a", "text", { regex: "(a" })], /regex "\(a" does not compile/],
    ["a backreference", [field("a", "text", { regex: "(a)\\1" })], /does not compile/],
    ["a lookahead in slash form", [field("a", "text", { regex: "/(?=a)a/i" })], /does not compile/],
    ["a non-date bound on a date field", [field("d", "date", { min: "tomorrow" })], /min "tomorrow" is not a date/],
    ["a number bound on a date field", [field("d", "date", { max: 20270101 })], /max 20270101 is not a date/],
    ["a date bound on a numeric field", [field("n", "numeric", { min: "2027-01-01" })], /min "2027-01-01" is not a finite number/],
    ["a non-numeric length bound", [field("t", "text", { max: "ten" })], /max "ten" is not a finite number/],
    ["an impossible date bound", [field("d", "date", { min: "2027-02-30" })], /min "2027-02-30"/],
    ["an infinite numeric-string bound", [field("n", "numeric", { max: "1e999" })], /max "1e999"/]
  ] as const)("refuses %s", (_, fields, message) => {
    const problems = checkFieldDefinitions(fields)
    expect(problems).toHaveLength(1)
    expect(problems[0]).toMatch(message)
  })

  it("names every problem", () =>
    expect(checkFieldDefinitions([
      field("a", "text", { regex: "[" }),
      field("a", "date", { min: 1, max: "x" }),
      field("B")
    ])).toHaveLength(5))
})
