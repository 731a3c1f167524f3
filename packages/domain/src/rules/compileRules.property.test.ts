import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import type { FieldOption, FormField } from "../forms/FormField.js"
import { compileRules } from "./compileRules.js"
import type { FieldErrors } from "./FieldErrors.js"

const types = ["text", "email", "url", "numeric", "date", "boolean", "phone", "select"] as const

const fieldArb = (slug: string): fc.Arbitrary<FormField> =>
  fc.record({
    type: fc.constantFrom(...types),
    is_required: fc.boolean(),
    is_unique: fc.boolean(),
    options: fc.option(fc.array(fc.constantFrom("a", "b", "1", "2027-01-01", "true"), { maxLength: 3 }), { nil: null }),
    min: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }),
    max: fc.option(fc.integer({ min: 0, max: 8 }), { nil: undefined }),
    regex: fc.option(fc.constantFrom("[a-z]+", "/A/i", "[0-9.]+", ".*"), { nil: undefined })
  }).map(({ is_required, is_unique, max, min, options, regex, type }) => ({
    id: slug,
    section_id: null,
    slug,
    label: slug,
    type,
    is_required,
    options: options === null ? null : options.map((value): FieldOption => ({ value, label: value, tags: [] })),
    validation_rules: type === "date"
      ? { min: "2027-01-01", ...(regex === undefined ? {} : { regex }) }
      : { ...(min === undefined ? {} : { min }), ...(max === undefined ? {} : { max }), ...(regex === undefined ? {} : { regex }) },
    is_unique,
    position: 1,
    maps_to: null
  }))

const slugs = ["a", "b", "c", "d", "e"] as const
const fieldsArb = fc.tuple(...slugs.map(fieldArb))

const valueArb: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom("", " ", "a", "A", "abc", " 12 ", "1", "0", "true", "2027-02-28", "2026-12-31", "a@b.nl", "https://x.y", "+31 6 12345678"),
  fc.string({ maxLength: 12 }),
  fc.integer({ min: -3, max: 12 }),
  fc.double({ noNaN: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.constantFrom("a", "b", 1, " a "), { maxLength: 4 }),
  fc.constant({ nested: true })
)

/** A values map with some slugs (and some keys that are not slugs), built with a null prototype. */
const valuesArb = fc
  .dictionary(fc.constantFrom(...slugs, "zz", "constructor", "__proto__"), valueArb, { maxKeys: 7 })
  .map((entries) => {
    const map = Object.create(null) as Record<string, unknown>
    for (const [key, value] of Object.entries(entries)) map[key] = value
    return map
  })

const flatten = (errors: FieldErrors | undefined): Set<string> =>
  new Set(Object.entries(errors ?? {}).flatMap(([slug, list]) => list.map((e) => `${slug}:${e.rule}:${e.message}`)))

/** The same entries in a plain object, as JSON.parse builds it (own keys, `__proto__` included). */
const plain = (map: Record<string, unknown>): Record<string, unknown> => {
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(map)) {
    Object.defineProperty(out, key, { value: map[key], enumerable: true, writable: true, configurable: true })
  }
  return out
}

describe("strict and relaxed, for any fields and values", () => {
  it("plain objects and null-prototype maps get the same answer", () =>
    fc.assert(fc.property(fieldsArb, valuesArb, (fields, values) => {
      const { relaxed, strict } = compileRules(fields)
      expect(strict(plain(values))).toEqual(strict(values))
      expect(relaxed(plain(values))).toEqual(relaxed(values))
      expect(Object.keys(strict(plain(values)).errors ?? {})).toEqual(Object.keys(strict(values).errors ?? {}))
    })))

  it("relaxed never reports required", () =>
    fc.assert(fc.property(fieldsArb, valuesArb, (fields, values) => {
      const rules = Object.values(compileRules(fields).relaxed(values).errors ?? {}).flat().map((e) => e.rule)
      expect(rules).not.toContain("required")
    })))

  it("relaxed reports only slugs that were sent", () =>
    fc.assert(fc.property(fieldsArb, valuesArb, (fields, values) => {
      for (const slug of Object.keys(compileRules(fields).relaxed(values).errors ?? {})) {
        expect(Object.hasOwn(values, slug)).toBe(true)
      }
    })))

  it("strict errors include every relaxed error", () =>
    fc.assert(fc.property(fieldsArb, valuesArb, (fields, values) => {
      const { relaxed, strict } = compileRules(fields)
      const strictErrors = flatten(strict(values).errors)
      for (const error of flatten(relaxed(values).errors)) expect(strictErrors).toContain(error)
    })))

  it("values that pass strict pass relaxed, with the same unique candidates", () =>
    fc.assert(fc.property(fieldsArb, valuesArb, (fields, values) => {
      const { relaxed, strict } = compileRules(fields)
      const strictResult = strict(values)
      if (strictResult.errors === undefined) {
        expect(relaxed(values)).toEqual(strictResult)
      }
    })))

  it("only required and the empty-value rule differ between the modes", () =>
    fc.assert(fc.property(fieldsArb, valuesArb, (fields, values) => {
      const { relaxed, strict } = compileRules(fields)
      const onlyInStrict = [...flatten(strict(values).errors)].filter((e) => !flatten(relaxed(values).errors).has(e))
      for (const error of onlyInStrict) expect(error).toMatch(/^[a-e]:required:/)
    })))

  it("error lists are never empty and keep the contract's rule order", () =>
    fc.assert(fc.property(fieldsArb, valuesArb, (fields, values) => {
      const order = ["invalid", "required", "max_length", "email", "url", "numeric", "date", "boolean", "phone", "in", "min", "max", "regex", "unique"]
      for (const list of Object.values(compileRules(fields).strict(values).errors ?? {})) {
        expect(list.length).toBeGreaterThan(0)
        const positions = list.map((e) => order.indexOf(e.rule))
        expect(positions).toEqual([...positions].sort((x, y) => x - y))
        if (list.length > 1) {
          for (const e of list) expect(["in", "min", "max", "regex"]).toContain(e.rule)
        }
      }
    })))
})
