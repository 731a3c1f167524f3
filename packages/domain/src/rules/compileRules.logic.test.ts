/** The rules of a form with conditions (CONTRACT §18): what inactive fields get, in which order conditions are read. */
import { describe, expect, it } from "@effect/vitest"
import type { FormField } from "../forms/FormField.js"
import type { FormSection } from "../forms/FormSchema.js"
import { compileFormLogic } from "../logic/formLogic.js"
import { readValue } from "../logic/readValue.js"
import { field, plain, values } from "../testing/rules/rulesTestKit.js"
import { compileRules } from "./compileRules.js"

const when = (f: FormField, visible_if: NonNullable<FormField["visible_if"]>, over: Partial<FormField> = {}): FormField => ({ ...f, visible_if, ...over })
const errorRules = (errors: Readonly<Record<string, ReadonlyArray<{ rule: string }>>> | undefined) =>
  Object.fromEntries(Object.entries(errors ?? {}).map(([slug, list]) => [slug, list.map((e) => e.rule)]))

const licence = [
  field("has_licence", { type: "boolean", required: true }),
  when(field("categories", { required: true, options: ["A", "B"], unique: true }), { "==": [{ var: "has_licence" }, true] }),
  when(field("since", { type: "date", required: true }), { "!!": [{ var: "categories" }] })
]

describe("a field's condition", () => {
  const rules = compileRules(licence)
  it("a required inactive field blocks nothing; active, it is required", () => {
    expect(rules.strict(values({ has_licence: "false" })).errors).toBeUndefined()
    expect(rules.strict(values({ has_licence: "false" })).inactive).toEqual(["categories", "since"])
    expect(errorRules(rules.strict(values({ has_licence: "1" })).errors)).toEqual({ categories: ["required"] })
    expect(errorRules(rules.strict(values({ has_licence: true, categories: ["A"] })).errors)).toEqual({ since: ["required"] })
  })

  it("strict: an inactive field gets no rule at all and gives no unique value", () => {
    const result = rules.strict(values({ has_licence: 0, categories: ["Z"], since: "never" }))
    expect(result.errors).toBeUndefined()
    expect(result.unique).toEqual([])
    expect(result.inactive).toEqual(["categories", "since"])
    expect(rules.strict(values({ has_licence: 1, categories: ["A"], since: "2020-01-01" })).unique.map((u) => u.slug)).toEqual(["categories"])
  })

  it("relaxed: an inactive field's value gets only invalid", () => {
    const result = rules.relaxed(values({ has_licence: false, categories: ["Z"], since: { a: 1 } }))
    expect(errorRules(result.errors)).toEqual({ since: ["invalid"] })
  })

  it("relaxed with a context: activity from the context, rules on the values", () => {
    const saved = values({ has_licence: "true" })
    const body = values({ categories: ["Z"] })
    expect(errorRules(rules.relaxed(body).errors)).toEqual({})
    expect(errorRules(rules.relaxed(body, values({ ...saved, ...body })).errors)).toEqual({ categories: ["in"] })
  })

  it("chains: C reads B reads A; B inactive reads null whatever it holds", () => {
    const active = compileFormLogic(licence, [])?.activity
    expect(active?.(values({ has_licence: false, categories: ["A"] }))).toEqual([true, false, false])
    expect(active?.(values({ has_licence: true, categories: ["A"] }))).toEqual([true, true, true])
    expect(active?.(values({ has_licence: true, categories: [] }))).toEqual([true, true, false])
  })

  it("evaluates in dependency order, whatever the field order", () => {
    const reversed = [licence[2], licence[1], licence[0]] as Array<FormField>
    expect(compileFormLogic(reversed, [])?.activity(values({ has_licence: true, categories: ["B"] }))).toEqual([true, true, true])
  })

  it("plain objects and null-prototype maps answer alike; inherited names read nothing", () => {
    const map = values({ has_licence: "false", categories: ["A"] })
    expect(rules.strict(plain(map))).toEqual(rules.strict(map))
    const tricky = compileRules([field("constructor"), when(field("b", { required: true }), { "!!": { var: "constructor" } })])
    expect(tricky.strict({}).errors).toBeUndefined()
    expect(tricky.strict({}).inactive).toEqual(["b"])
  })
})

describe("a section's condition", () => {
  const sections: ReadonlyArray<FormSection> = [{ id: "car", name: "Car", position: 1, visible_if: { "===": [{ var: "drives" }, "yes"] } }]
  const fields = [
    field("drives", { options: ["yes", "no"] }),
    { ...field("plate", { required: true }), section_id: "car" },
    when({ ...field("model", { required: true }), section_id: "car" }, { "!=": [{ var: "plate" }, null] })
  ]
  const rules = compileRules(fields, sections)
  it("makes every field of the section inactive, and what reads them reads null", () => {
    expect(rules.strict(values({ drives: "no", plate: "X" })).inactive).toEqual(["plate", "model"])
    expect(errorRules(rules.strict(values({ drives: " yes " })).errors)).toEqual({ plate: ["required"] })
    expect(errorRules(rules.strict(values({ drives: "yes", plate: "X" })).errors)).toEqual({ model: ["required"] })
  })
  it("a form without conditions has no logic and no inactive list", () => {
    const none = compileRules([field("a", { required: true })])
    expect(none.hasLogic).toBe(false)
    expect(rules.hasLogic).toBe(true)
    expect(none.strict(values({ a: "x" })).inactive).toBeUndefined()
  })
})

describe("what a var reads (readValue)", () => {
  it.each([
    ["boolean", "true", true],
    ["boolean", " 0 ", false],
    ["boolean", 1, true],
    ["boolean", "yes", "yes"],
    ["boolean", 2, 2],
    ["numeric", " 12.5 ", 12.5],
    ["numeric", "1e3", 1000],
    ["numeric", "twelve", "twelve"],
    ["numeric", 7, 7],
    ["text", "  hi ", "hi"],
    ["text", "   ", null],
    ["text", 12, 12],
    ["text", false, false],
    ["select", [" a ", 1], ["a", 1]],
    ["select", [], null],
    ["select", [{}], null],
    ["text", { a: 1 }, null],
    ["text", null, null],
    ["text", undefined, null]
  ] as const)("%s %j → %j", (type, value, read) =>
    expect(readValue(type === "boolean" ? "boolean" : type === "numeric" ? "numeric" : "other", value)).toEqual(read))
})
