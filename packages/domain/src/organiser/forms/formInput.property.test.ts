import fc from "fast-check"
import { describe, expect, it } from "@effect/vitest"
import { Result } from "effect"
import { checkDefinition } from "./checkDefinition.js"
import { isStorable } from "../../rules/bodyChecks.js"
import { definitionInput, formPatchInput, withIds } from "./formInput.js"

// Hostile values: every JSON kind, the characters PostgreSQL cannot store, patterns RE2 refuses.
const hostile: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom("", " ", "\u0000", "a\ud800", "\udc00b", "(?<=a)b", "(", "Bad Slug", "__proto__", "artist.x", "time_slots", "2027-02-30", 1e309, -0),
  fc.string({ maxLength: 20 })
)
// Conditions (form logic), well-formed or not: the allowed operators, others, vars of every form, deep nesting.
const deep = fc.integer({ min: 1, max: 40 }).map((n) => {
  let node: unknown = { var: "a" }
  for (let i = 0; i < n; i++) node = { "!": [node] }
  return node
})
const condition: fc.Arbitrary<unknown> = fc.oneof(
  hostile,
  deep,
  fc.constantFrom(
    { var: "a" }, { var: ["a"] }, { var: "b" }, { var: "a.b" }, { var: ["a", 1] }, { var: "__proto__" }, { var: "\u0000" },
    { "==": [{ var: "a" }, "x\ud800"] }, { in: [{ var: "a" }, ["x", 1, null, [true]]] }, { "<": [1, { var: "a" }, 3] },
    { if: [true, 1] }, { constructor: 1 }, {}, { and: [], or: [] }, { "!": { var: "b" } }
  )
)
const member = (names: ReadonlyArray<string>) =>
  fc.tuple(fc.constantFrom(...names), hostile).chain(([name, value]) =>
    name === "visible_if" ? condition.map((c) => [name, c] as const) : fc.constant([name, value] as const))
const objectOf = (names: ReadonlyArray<string>, good: Record<string, unknown>) =>
  fc.array(member(names), { maxLength: 6 }).map((members) => {
    const out: Record<string, unknown> = { ...good }
    for (const [k, v] of members) out[k] = v
    return out
  })

const fieldNames = [
  "id", "section_id", "slug", "label", "type", "is_required", "options", "validation_rules", "is_unique", "position", "maps_to",
  "visible_if", "help", "extra"
]
const field = fc.oneof(
  hostile,
  objectOf(fieldNames, { slug: "a", label: "A", type: "text" }),
  objectOf(["min", "max", "regex", "x"], {}).map((rules) => ({ slug: "b", label: "B", type: "numeric", validation_rules: rules }))
)
const section = fc.oneof(hostile, objectOf(["id", "name", "position", "visible_if", "x"], { name: "S" }))
const body = fc.record({
  name: hostile,
  type: fc.oneof(fc.constantFrom("volunteer", "registration", "artist_advance"), hostile),
  event_id: hostile,
  status: hostile,
  opens_at: hostile,
  closes_at: hostile,
  tags: hostile,
  sections: fc.oneof(hostile, fc.array(section, { maxLength: 4 })),
  fields: fc.oneof(hostile, fc.array(field, { maxLength: 6 })),
  revision: hostile
}, { requiredKeys: [] })

describe("definitionInput on hostile bodies", () => {
  it("never throws; a body it accepts passes the definition check; a refusal names dotted paths", () =>
    fc.assert(fc.property(body, (input) => {
      const result = definitionInput(input)
      if (Result.isSuccess(result)) {
        let n = 0
        const definition = withIds(result.success, () => `generated-${++n}`)
        expect(checkDefinition(definition)).toEqual([])
        // Every string of an accepted definition can be stored (no U+0000, no unpaired surrogate).
        const strings: Array<string> = []
        JSON.stringify(definition, (_, v: unknown) => (typeof v === "string" ? (strings.push(v), v) : v))
        for (const s of strings) expect(isStorable(s), JSON.stringify(s)).toBe(true)
        return
      }
      const paths = Object.keys(result.failure)
      expect(paths.length).toBeGreaterThan(0)
      for (const path of paths) {
        // A member of the body (or a required one it lacks), then indexes and member names below it.
        expect([...Object.keys(input), "name", "type", "event_id"]).toContain(path.split(".")[0])
        expect(result.failure[path]?.length).toBeGreaterThan(0)
      }
    }), { numRuns: 2000 }))

  it("PATCH bodies never throw either", () =>
    fc.assert(fc.property(objectOf(["name", "status", "opens_at", "closes_at", "tags", "x"], {}), (input) => {
      const result = formPatchInput(input)
      if (Result.isFailure(result)) expect(Object.keys(result.failure).length).toBeGreaterThan(0)
    }), { numRuns: 1000 }))
})
