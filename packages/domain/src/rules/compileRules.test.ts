import { describe, expect, it } from "@effect/vitest"
import { cases, field, rulesOf, values } from "../testing/rules/rulesTestKit.js"
import { compileRules } from "./compileRules.js"
import type { ValidationRules } from "../forms/FormField.js"
import type { FieldErrors } from "./FieldErrors.js"



describe("emptiness and required", () => {
  cases("a required text field", { required: true, rules: { min: 3, regex: "[a-z]+" } }, [
    [undefined, ["required"]],
    [null, ["required"]],
    ["", ["required"]],
    ["  \t\n ", ["required"]],
    ["\u00a0\u2003", ["required"]], // trim removes Unicode spaces too
    ["abc", []],
    ["  abc  ", []] // trimmed before min and regex
  ])
  cases("an optional field skips every rule on an empty value", {
    type: "email",
    options: ["a@b.nl"],
    rules: { min: 10, regex: "x" }
  }, [[undefined, []], [null, []], ["   ", []], [[], []]])
  cases("a required multi-select", { required: true, options: ["a", "b"] }, [[[], ["required"]], [["a"], []]])
  it("an empty value fails only required", () =>
    expect(rulesOf({ type: "phone", required: true, rules: { min: 3, regex: "x" } }, " ")).toEqual(["required"]))
})

describe("JSON shapes", () => {
  cases("a field without options", {}, [
    [{}, ["invalid"]],
    [{ a: 1 }, ["invalid"]],
    [["a"], ["invalid"]],
    [[1], ["invalid"]],
    [Number.NaN, ["invalid"]],
    [Number.POSITIVE_INFINITY, ["invalid"]],
    [12, []],
    [true, []],
    ["x", []]
  ])
  cases("a field with options", { options: ["a", "1"] }, [
    [["a", 1], []],
    [[" a "], []],
    [["a", ["1"]], ["invalid"]],
    [["a", null], ["invalid"]],
    [["a", true], ["invalid"]],
    [["a", {}], ["invalid"]],
    [[Number.NaN], ["invalid"]],
    [{ value: "a" }, ["invalid"]]
  ])
  it("invalid stops every later rule", () =>
    expect(rulesOf({ type: "email", required: true, options: ["x"], rules: { regex: "y" } }, { a: 1 }))
      .toEqual(["invalid"]))
})

describe("rule order", () => {
  it("in, min, max and regex are all reported, in that order", () => {
    expect(rulesOf({ options: ["abcdef"], rules: { min: 3, regex: "[0-9]+" } }, "ab")).toEqual(["in", "min", "regex"])
    expect(rulesOf({ options: ["a"], rules: { max: 2, regex: "[0-9]+" } }, "abc")).toEqual(["in", "max", "regex"])
    expect(rulesOf({ options: ["a", "b", "c"], rules: { min: 5, regex: "z" } }, ["a", "q"]))
      .toEqual(["in", "min", "regex"])
  })
  it("min and max can both fail when the bounds cross", () =>
    expect(rulesOf({ rules: { min: 5, max: 2 } }, "abc")).toEqual(["min", "max"]))
})

describe("strict and relaxed", () => {
  const fields = [
    field("email", { type: "email", required: true }),
    field("name", { required: true }),
    field("age", { type: "numeric", rules: { min: 18 } })
  ]
  const { relaxed, strict } = compileRules(fields)
  const rules = (errors: FieldErrors | undefined) =>
    Object.fromEntries(Object.entries(errors ?? {}).map(([slug, list]) => [slug, list.map((e) => e.rule)]))

  it("strict checks every field; relaxed only those sent, never required", () => {
    const sent = values({ age: "12", name: "" })
    expect(rules(strict(sent).errors)).toEqual({ email: ["required"], name: ["required"], age: ["min"] })
    expect(rules(relaxed(sent).errors)).toEqual({ age: ["min"] })
  })
  it("ignores keys that are not slugs, and answers undefined errors when all pass", () => {
    const sent = values({ email: "a@b.nl", name: "Ann", __proto__: "x", constructor: 1, status: "submitted" })
    expect(strict(sent)).toEqual({ errors: undefined, unique: [] })
    expect(relaxed(values({})).errors).toBeUndefined()
  })
  it("reads only own keys: a slug named like a prototype property is absent unless sent", () => {
    const { strict: check } = compileRules([field("constructor", { required: true }), field("tostring", { required: true })])
    expect(rules(check({}).errors)).toEqual({ constructor: ["required"], tostring: ["required"] })
    expect(check(JSON.parse('{"constructor":"x","tostring":"y"}') as Record<string, unknown>).errors).toBeUndefined()
    const inherited = Object.create({ tostring: "inherited" }) as Record<string, unknown>
    expect(rules(check(inherited).errors)).toEqual({ constructor: ["required"], tostring: ["required"] })
  })
  it("returns a null-prototype errors object with only the failing slugs, in field order", () => {
    const { errors } = strict(values({ age: "x", email: "nope" }))
    expect(Object.getPrototypeOf(errors)).toBeNull()
    expect(Object.keys(errors ?? {})).toEqual(["email", "name", "age"])
  })
  it("answers plain objects (as JSON.parse builds them) like null-prototype maps", () => {
    const sent = JSON.parse('{"age":"12","zz":1,"name":"  ","__proto__":{"email":"x"}}') as Record<string, unknown>
    expect(rules(strict(sent).errors)).toEqual({ email: ["required"], name: ["required"], age: ["min"] })
    expect(rules(relaxed(sent).errors)).toEqual({ age: ["min"] })
    expect(Object.getPrototypeOf(strict(sent).errors)).toBeNull()
  })
  it("lists errors in field order whatever the order of the keys sent", () => {
    const sent = { age: "x", email: "nope", name: 1 }
    const { errors } = strict(sent)
    expect(Object.keys(errors ?? {})).toEqual(["email", "age"])
    expect(Object.keys(strict({ age: "x" }).errors ?? {})).toEqual(["email", "name", "age"])
  })
  it("never throws on any input", () => {
    for (const input of [null, undefined, 1, "x", [], new Map()]) {
      expect(() => strict(input as unknown as Record<string, unknown>)).not.toThrow()
    }
  })
})

describe("unique candidates", () => {
  const fields = [
    field("email", { type: "email", unique: true }),
    field("code", { unique: true, rules: { regex: "[A-Z]+" } }),
    field("n", { type: "numeric", unique: true }),
    field("picks", { options: ["b", "a", "C"], unique: true }),
    field("plain")
  ]
  const { relaxed, strict } = compileRules(fields)
  it("offers each unique field's normalized value once every other rule passed", () => {
    expect(strict(values({ email: "  Ann@Example.NL ", code: " AB ", n: 12, picks: ["b", " a"] })).unique).toEqual([
      { slug: "email", normalized: "ann@example.nl" },
      { slug: "code", normalized: "AB" },
      { slug: "n", normalized: "12e0" },
      { slug: "picks", normalized: '["a","b"]' }
    ])
  })
  it("offers them in field order from a plain object with keys in another order", () => {
    expect(strict({ picks: ["a"], n: 1, email: "a@b.nl" }).unique.map((c) => c.slug)).toEqual(["email", "n", "picks"])
  })
  it("offers nothing for empty or failing values", () => {
    const result = relaxed(values({ email: " ", code: "ab", n: "x" }))
    expect(result.unique).toEqual([])
    expect(Object.keys(result.errors ?? {})).toEqual(["code", "n"])
  })
  it("never reports unique itself", () =>
    expect(strict(values({ email: "a@b.nl" })).errors).toBeUndefined())
})

describe("robustness of compiled rules", () => {
  it("a pattern that does not compile fails closed instead of throwing", () =>
    expect(rulesOf({ rules: { regex: "(a" } }, "a")).toEqual(["regex"]))
  it("a bound that cannot be read is ignored", () =>
    expect(rulesOf({ type: "date", rules: { min: 5 } }, "2027-01-01")).toEqual([]))
  it("error lists are frozen, so a caller cannot corrupt the shared ones", () => {
    const list = compileRules([field("x", { required: true })]).strict(values({})).errors?.["x"]
    expect(Object.isFrozen(list)).toBe(true)
  })
})

describe("regex_message", () => {
  const errorsOf = (rules: ValidationRules, value: unknown) =>
    compileRules([field("code", { rules })]).strict(values({ code: value })).errors?.["code"]

  it("is the regex rule's message when the field gives one; the default otherwise (or when it is blank)", () => {
    const own = "Two capital letters, a dash and four digits."
    expect(errorsOf({ regex: "^[A-Z]{2}-\\d{4}$", regex_message: own }, "ab")).toEqual([{ rule: "regex", message: own }])
    expect(errorsOf({ regex: "^[A-Z]{2}-\\d{4}$" }, "ab")).toEqual([{ rule: "regex", message: "Must match the required format." }])
    expect(errorsOf({ regex: "^[A-Z]{2}-\\d{4}$", regex_message: "  " }, "ab")?.[0]?.message).toBe("Must match the required format.")
    // Only the regex rule's message: the others keep theirs.
    expect(errorsOf({ regex: "^x+$", min: 3, regex_message: own }, "ab")).toEqual([
      { rule: "min", message: expect.any(String) },
      { rule: "regex", message: own }
    ])
    expect(errorsOf({ regex: "^x+$", regex_message: own }, "xx")).toBeUndefined()
  })
})
