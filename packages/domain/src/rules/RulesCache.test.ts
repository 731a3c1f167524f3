import { describe, expect, it } from "@effect/vitest"
import type { FormField } from "../forms/FormField.js"
import { makeRulesCache } from "./RulesCache.js"

const fields = (required: boolean): ReadonlyArray<FormField> => [{
  id: "f",
  section_id: null,
  slug: "a",
  label: "A",
  type: "text",
  is_required: required,
  options: null,
  validation_rules: null,
  is_unique: false,
  position: 1,
  maps_to: null
}]

describe("makeRulesCache", () => {
  it("compiles a key once and returns the same rules after", () => {
    const cache = makeRulesCache()
    const first = cache.get("s1:r1", fields(true))
    expect(cache.get("s1:r1", fields(false))).toBe(first)
    expect(cache.get("s1:r2", fields(false))).not.toBe(first)
    expect(cache.get("s1:r2", fields(false)).strict({}).errors).toBeUndefined()
  })

  it("drops the least recently used key beyond its size", () => {
    const cache = makeRulesCache(2)
    const a = cache.get("a", fields(true))
    const b = cache.get("b", fields(true))
    expect(cache.get("a", fields(true))).toBe(a) // a is now the most recent
    cache.get("c", fields(true)) // drops b
    expect(cache.size()).toBe(2)
    expect(cache.get("a", fields(true))).toBe(a)
    expect(cache.get("b", fields(true))).not.toBe(b)
  })
})
