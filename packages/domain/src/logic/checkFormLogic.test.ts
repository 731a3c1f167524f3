import { describe, expect, it } from "@effect/vitest"
import type { FormField } from "../forms/FormField.js"
import type { FormSection } from "../forms/FormSchema.js"
import { checkDefinition } from "../organiser/forms/checkDefinition.js"

const field = (slug: string, over: Partial<FormField> = {}): FormField => ({
  id: `f-${slug}`,
  section_id: null,
  slug,
  label: slug,
  type: "text",
  is_required: false,
  options: null,
  validation_rules: null,
  is_unique: false,
  position: 1,
  maps_to: null,
  ...over
})

const section = (id: string, visible_if: FormSection["visible_if"] = null): FormSection => ({ id, name: id, position: 1, visible_if })

const problems = (fields: ReadonlyArray<FormField>, sections: ReadonlyArray<FormSection> = [], type = "registration") =>
  checkDefinition({ type, sections, fields }).map((p) => [p.path, p.error.rule, p.error.message])

const paths = (fields: ReadonlyArray<FormField>, sections: ReadonlyArray<FormSection> = [], type = "registration") =>
  problems(fields, sections, type).map(([path, rule]) => `${path} ${rule}`)

describe("the definition check of conditions (rule logic)", () => {
  it("accepts conditions of the allowed operators over other fields, chains and sections", () =>
    expect(paths([
      field("a", { type: "boolean" }),
      field("b", { visible_if: { "==": [{ var: "a" }, true] } }),
      field("c", { visible_if: { and: [{ "!!": [{ var: ["b"] }] }, { in: [{ var: "b" }, ["x", "y"]] }] } }),
      field("d", { section_id: "s", visible_if: { "<": [1, { var: "c" }, 10] } })
    ], [section("s", { or: [{ "!": { var: "a" } }, { "!==": [{ var: "b" }, null] }] })])).toEqual([]))

  it("refuses unknown operators, malformed vars, unknown and self references, bad literals: all at once", () =>
    expect(paths([
      field("a", { visible_if: { if: [true, 1, 2] } }),
      field("b", { visible_if: { "==": [{ var: "a.b" }, 1] } }),
      field("c", { visible_if: { "==": [{ var: ["a", 1] }, 1] } }),
      field("d", { visible_if: { var: "nope" } }),
      field("e", { visible_if: { "!!": { var: "e" } } }),
      field("f", { visible_if: { "==": [{ a: 1, b: 2 }, 1] } }),
      field("g", { visible_if: { in: [1, [{ var: "a" }]] } }),
      field("h", { visible_if: { "==": [{ var: 3 }, 1] } }),
      field("i", { section_id: "s" })
    ], [section("s", { "==": [{ var: "i" }, "x"] })])).toEqual([
      "sections.0.visible_if logic",
      "fields.0.visible_if logic",
      "fields.1.visible_if logic",
      "fields.2.visible_if logic",
      "fields.3.visible_if logic",
      "fields.4.visible_if logic",
      "fields.5.visible_if logic",
      "fields.6.visible_if logic",
      "fields.7.visible_if logic"
    ]))

  it("reports a cycle at each condition on it, with the parts named", () => {
    const found = problems([
      field("a", { visible_if: { var: "c" } }),
      field("b", { visible_if: { var: "a" } }),
      field("c", { visible_if: { var: "b" } }),
      field("d", { visible_if: { var: "a" } }),
      field("x", { section_id: "s2" }),
      field("y", { section_id: "s1" })
    ], [section("s1", { var: "x" }), section("s2", { var: "y" })])
    expect(found.map(([path]) => path)).toEqual([
      "fields.0.visible_if",
      "fields.1.visible_if",
      "fields.2.visible_if",
      "sections.0.visible_if",
      "sections.1.visible_if"
    ])
    expect(found[0]?.[2]).toBe('The condition is on a cycle of conditions: field "a", field "b", field "c".')
  })

  it("refuses a condition over 2,000 characters or nested deeper than 10", () => {
    let deep: unknown = { var: "a" }
    for (let i = 0; i < 5; i++) deep = { "!": [deep] }
    expect(paths([field("a"), field("b", { visible_if: deep as NonNullable<FormField["visible_if"]> })])).toEqual(["fields.1.visible_if logic"])
    let fine: unknown = { var: "a" }
    for (let i = 0; i < 4; i++) fine = { "!": [fine] }
    expect(paths([field("a"), field("b", { visible_if: fine as NonNullable<FormField["visible_if"]> })])).toEqual([])
    const long = { in: [{ var: "a" }, Array.from({ length: 400 }, (_, i) => `v${i}`)] }
    expect(JSON.stringify(long).length).toBeGreaterThan(2000)
    expect(paths([field("a"), field("b", { visible_if: long })])).toEqual(["fields.1.visible_if logic"])
  })

  it("artist_advance: no section condition, a field's condition reads only its own section", () =>
    expect(paths([
      field("a", { section_id: "s1" }),
      field("b", { section_id: "s1", visible_if: { var: "a" } }),
      field("c", { section_id: "s2", visible_if: { var: "a" } })
    ], [section("s1", { var: "c" }), section("s2")], "artist_advance")).toEqual([
      "sections.0.visible_if logic",
      "fields.2.visible_if logic"
    ]))

  it("help at most 1,000 characters; a hidden field is neither required nor unique", () =>
    expect(paths([
      field("a", { help: "h".repeat(1001) }),
      field("b", { help: "h".repeat(1000) }),
      field("c", { type: "hidden", is_required: true, is_unique: true })
    ])).toEqual(["fields.0.help max", "fields.2.is_required invalid", "fields.2.is_unique invalid"]))
})
