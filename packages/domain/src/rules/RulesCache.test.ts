import { describe, expect, it } from "@effect/vitest"
import { type FormField, normalizeField } from "../forms/FormField.js"
import { seedField } from "../memory/Seed.js"
import { makeRulesCache } from "./RulesCache.js"

const field = (overrides: Partial<FormField> = {}): FormField =>
  normalizeField(seedField({ id: "f", slug: "a", label: "A", ...overrides }))
const fields = (required: boolean): ReadonlyArray<FormField> => [field({ is_required: required })]

describe("makeRulesCache", () => {
  it("compiles a definition once: the same array, or equal fields in a fresh one, get the same rules", () => {
    const cache = makeRulesCache()
    const definition = fields(true)
    const first = cache.get(definition)
    expect(cache.get(definition)).toBe(first)
    expect(cache.get(fields(true))).toBe(first)
    expect(cache.size()).toBe(1)
  })

  it("a field changed in place (same schema, same revision) gets fresh rules: required, regex, options", () => {
    const cache = makeRulesCache()
    expect(cache.get(fields(false)).strict({}).errors).toBeUndefined()
    expect(cache.get(fields(true)).strict({}).errors).toBeDefined()

    const code = (regex: string) => [field({ validation_rules: { regex: `^${regex}$` } })]
    expect(cache.get(code("[a-z]+")).relaxed({ a: "abc" }).errors).toBeUndefined()
    expect(cache.get(code("[0-9]+")).relaxed({ a: "abc" }).errors).toBeDefined()

    const size = (options: ReadonlyArray<string>) =>
      [field({ type: "select", options: options.map((value) => ({ value, label: value, tags: [] })) })]
    expect(cache.get(size(["S", "M"])).relaxed({ a: "L" }).errors).toBeDefined()
    expect(cache.get(size(["S", "M", "L"])).relaxed({ a: "L" }).errors).toBeUndefined()
  })

  it("drops the least recently used definition beyond its size", () => {
    const cache = makeRulesCache(2)
    const a = cache.get([field({ slug: "a" })])
    const b = cache.get([field({ slug: "b" })])
    expect(cache.get([field({ slug: "a" })])).toBe(a) // a is now the most recent
    cache.get([field({ slug: "c" })]) // drops b
    expect(cache.size()).toBe(2)
    expect(cache.get([field({ slug: "a" })])).toBe(a)
    expect(cache.get([field({ slug: "b" })])).not.toBe(b)
  })
})
