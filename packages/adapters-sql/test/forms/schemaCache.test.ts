/** The row cache's rules (FormSchemaCache.ts), without a database. */
import { describe, expect, it } from "vitest"
import { makeSchemaRowCache } from "../../src/forms/FormSchemaCache.js"

describe("schema row cache", () => {
  it("keeps nothing until a listener is in place, and forgets everything when it goes", () => {
    const cache = makeSchemaRowCache()
    cache.store("token:a", { id: "a" }, cache.generation())
    expect([cache.generation(), cache.get("token:a")]).toEqual([null, undefined])
    cache.setListening(true)
    cache.store("token:a", { id: "a" }, cache.generation())
    expect(cache.get("token:a")).toEqual({ id: "a" })
    cache.setListening(false)
    expect(cache.get("token:a")).toBeUndefined()
    cache.setListening(true)
    expect(cache.get("token:a")).toBeUndefined()
  })

  it("a row read before an invalidation is not stored after it; one read after is", () => {
    const cache = makeSchemaRowCache()
    cache.setListening(true)
    const before = cache.generation()
    cache.invalidate()
    cache.store("id:a", { id: "a", status: "published" }, before)
    expect(cache.get("id:a")).toBeUndefined()
    cache.store("id:a", { id: "a", status: "archived" }, cache.generation())
    expect(cache.get("id:a")).toEqual({ id: "a", status: "archived" })
    cache.invalidate()
    expect(cache.get("id:a")).toBeUndefined()
    // A read that started while nothing could be cached is never stored, even once caching is on.
    cache.setListening(false)
    const offline = cache.generation()
    cache.setListening(true)
    cache.store("id:a", { id: "a" }, offline)
    expect(cache.get("id:a")).toBeUndefined()
  })

  it("stays bounded", () => {
    const cache = makeSchemaRowCache({ maxEntries: 3 })
    cache.setListening(true)
    for (const key of ["a", "b", "c", "d"]) cache.store(key, { key }, cache.generation())
    expect(cache.stats().size).toBeLessThanOrEqual(3)
    expect(cache.get("d")).toEqual({ key: "d" })
  })

  it("a row is kept at most maxAgeMs, whether or not a notification came", () => {
    let now = 1_000
    const cache = makeSchemaRowCache({ maxAgeMs: 2_000, now: () => now })
    cache.setListening(true)
    cache.store("token:a", { id: "a" }, cache.generation())
    now += 2_000
    expect(cache.get("token:a")).toEqual({ id: "a" })
    now += 1
    expect(cache.get("token:a")).toBeUndefined()
  })
})
