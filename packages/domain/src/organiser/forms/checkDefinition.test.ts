import { describe, expect, it } from "@effect/vitest"
import type { FormField } from "../../forms/FormField.js"
import { checkDefinition, definitionLimits } from "./checkDefinition.js"

const field = (i: number, over: Partial<FormField> = {}): FormField => ({
  id: `f${i}`,
  section_id: null,
  slug: `s${i}`,
  label: `Field ${i}`,
  type: "text",
  is_required: false,
  options: null,
  validation_rules: null,
  is_unique: false,
  position: i,
  maps_to: null,
  ...over
})

const pathsAndRules = (type: string | undefined, sections: ReadonlyArray<{ id: string; name: string; position: number }>, fields: ReadonlyArray<FormField>) =>
  checkDefinition({ type, sections, fields }).map((p) => [p.path, p.error.rule])

describe("checkDefinition", () => {
  it("accepts a well-formed definition", () =>
    expect(pathsAndRules("volunteer", [{ id: "a", name: "A", position: 1 }], [
      field(0, { section_id: "a", type: "time_slots" }),
      field(1, { validation_rules: { min: 1, max: 3, regex: "/[a-z]+/i" }, maps_to: "artist.bio" })
    ])).toEqual([]))

  it("reports every problem at once, each at its dotted path with its rule", () =>
    expect(pathsAndRules("registration", [{ id: "a", name: "A", position: 1 }, { id: "a", name: "B", position: 2 }], [
      field(0, { slug: "Bad" }),
      field(1, { slug: "s2" }),
      field(2, { id: "f1", section_id: "nope" }),
      field(3, { type: "time_slots", maps_to: "profile.x" }),
      field(4, { validation_rules: { regex: "(?<=a)b" } }),
      field(5, { type: "numeric", validation_rules: { min: 10, max: 2 } }),
      field(6, { type: "date", validation_rules: { min: 5 } }),
      field(7, { label: "x".repeat(definitionLimits.label + 1) }),
      field(8, { options: [{ value: "a", label: "y".repeat(501), tags: [] }] })
    ])).toEqual([
      ["sections.1.id", "unique"],
      ["fields.0.slug", "invalid"],
      ["fields.2.id", "unique"],
      ["fields.2.slug", "unique"],
      ["fields.2.section_id", "in"],
      ["fields.3.type", "invalid"],
      ["fields.3.maps_to", "invalid"],
      ["fields.4.validation_rules.regex", "regex"],
      ["fields.5.validation_rules.min", "invalid"],
      ["fields.6.validation_rules.min", "invalid"],
      ["fields.7.label", "max"],
      ["fields.8.options.0.label", "max"]
    ]))

  it("size limits: 500 fields, 100 sections, 500 options", () => {
    const sections = Array.from({ length: 101 }, (_, i) => ({ id: `x${i}`, name: "S", position: i }))
    const fields = Array.from({ length: 501 }, (_, i) => field(i))
    const options = Array.from({ length: 501 }, (_, i) => ({ value: `${i}`, label: `${i}`, tags: [] }))
    expect(pathsAndRules("volunteer", sections, [...fields.slice(0, 499), field(999, { options })])).toEqual([
      ["sections", "max"],
      ["fields.499.options", "max"]
    ])
    expect(pathsAndRules("volunteer", [], fields)).toEqual([["fields", "max"]])
  })

  it("refuses a pattern over the cost budget with rule regex at its path, and admits everyday ones", () => {
    const problems = checkDefinition({
      type: "registration",
      sections: [],
      fields: [
        field(0, { validation_rules: { regex: "^[^@\\s]+@[^@\\s]+\\.[a-z]{2,}$" } }),
        field(1, { validation_rules: { regex: "^\\+?[0-9 ()-]{7,20}$" } }),
        // the pattern that froze a server for 33.8 s on ten fields: 6,002 instructions
        field(2, { validation_rules: { regex: "(\\w+\\s?){1000}" } }),
        // counted repetitions nested: small counts each, a program of 962 instructions
        field(3, { validation_rules: { regex: "(a{30}){30}" } }),
        // a small program with many instructions live at once on "aaaa…"
        field(4, { validation_rules: { regex: "/(\\w+\\s?){5}/i" } }),
        field(5, { validation_rules: { regex: "(mon|tue|wed|thu|fri|sat|sun)" } })
      ]
    })
    expect(problems.map((p) => [p.path, p.error.rule])).toEqual([
      ["fields.2.validation_rules.regex", "regex"],
      ["fields.3.validation_rules.regex", "regex"],
      ["fields.4.validation_rules.regex", "regex"]
    ])
    expect(problems[0]?.error.message).toMatch(/^regex ".+" is over the cost budget of a pattern: .*more than the \d+ allowed\.$/)
    expect(problems[1]?.error.message).toMatch(/its program has \d+ instructions, more than the \d+ allowed\.$/)
    expect(problems[2]?.error.message).toMatch(/more than \d+ of its instructions can be live at once/)
  })

  it("a time_slots field on a volunteer form is allowed; on any other type it is not", () => {
    expect(pathsAndRules("volunteer", [], [field(0, { type: "time_slots" })])).toEqual([])
    expect(pathsAndRules("artist_advance", [], [field(0, { type: "time_slots" })])).toEqual([["fields.0.type", "invalid"]])
  })

  it("form and field types are the listed ones only (case-sensitive): others are refused with rule in, naming them", () => {
    const problems = checkDefinition({
      type: "volunteers",
      sections: [],
      fields: [field(0, { type: "dropdown" }), field(1, { type: "Email" }), field(2, { type: "multi_select" })]
    })
    expect(problems.map((p) => [p.path, p.error.rule])).toEqual([["type", "in"], ["fields.0.type", "in"], ["fields.1.type", "in"]])
    expect(problems[0]?.error.message).toBe(
      "The form type \"volunteers\" is not one of registration, volunteer, artist_advance."
    )
    expect(problems[1]?.error.message).toBe(
      "The field type \"dropdown\" is not one of text, textarea, email, url, numeric, date, boolean, phone, select, " +
        "radio, checkbox, checkboxes, multi_select, time_slots, file, hidden."
    )
    const every = ["text", "textarea", "email", "url", "numeric", "date", "boolean", "phone", "select", "radio", "checkbox",
      "checkboxes", "multi_select", "time_slots", "file", "hidden"].map((type, i) => field(i, { type }))
    for (const type of ["registration", "volunteer", "artist_advance"]) {
      expect(pathsAndRules(type, [], every.filter((f) => type === "volunteer" || f.type !== "time_slots"))).toEqual([])
    }
  })

  it("regex_message: a string of at most 200 code points", () => {
    expect(pathsAndRules("registration", [], [
      field(0, { validation_rules: { regex: "a", regex_message: "Only a." } }),
      field(1, { validation_rules: { regex: "a", regex_message: "\u{1F3AA}".repeat(200) } }),
      field(2, { validation_rules: { regex: "a", regex_message: "x".repeat(201) } }),
      field(3, { validation_rules: { regex: "a", regex_message: 42 as unknown as string } })
    ])).toEqual([["fields.2.validation_rules.regex_message", "max"], ["fields.3.validation_rules.regex_message", "invalid"]])
  })
})
