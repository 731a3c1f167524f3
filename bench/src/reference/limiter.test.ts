import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeLimiter } from "./limiter.js"
import { openTestSchema, testDatabaseUrl } from "./testDb.js"

const hour = 3_600_000

describe.skipIf(testDatabaseUrl === undefined)("the reference's one-statement limiter on PostgreSQL", () => {
  let db: Awaited<ReturnType<typeof openTestSchema>>
  beforeAll(async () => {
    db = await openTestSchema()
  })
  afterAll(async () => {
    await db.close()
  })

  it("lets exactly the limit through among 50 parallel hits of one key, and counts no refused hit", async () => {
    const limiter = makeLimiter(db.sql)
    const now = Date.now()
    const decisions = await Promise.all(Array.from({ length: 50 }, () => limiter.hit("submit:f:10.0.0.1", 10, hour, now)))
    expect(decisions.filter((d) => d?.allowed).length).toBe(10)
    expect(decisions.filter((d) => d?.allowed).map((d) => d?.remaining).sort((a, b) => (a ?? 0) - (b ?? 0)))
      .toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    expect(decisions.filter((d) => d?.allowed === false).every((d) => d?.remaining === 0 && d.resetSeconds === 3600)).toBe(true)
    const [row] = await db.sql<Array<{ n: number }>>`SELECT cardinality(hits) AS n FROM rate_limit_windows WHERE key = 'submit:f:10.0.0.1'`
    expect(row?.n).toBe(10)
  })

  it("slides: a hit leaves the window after its length, Retry-After counts to the oldest counted hit", async () => {
    const limiter = makeLimiter(db.sql)
    const t0 = 1_000_000_000
    expect((await limiter.hit("k", 2, 60_000, t0))?.allowed).toBe(true)
    expect((await limiter.hit("k", 2, 60_000, t0 + 10_000))?.remaining).toBe(0)
    expect(await limiter.hit("k", 2, 60_000, t0 + 20_500)).toEqual({ allowed: false, remaining: 0, resetSeconds: 40 })
    // The first hit has left the window; the second still counts.
    expect(await limiter.hit("k", 2, 60_000, t0 + 60_001)).toEqual({ allowed: true, remaining: 0, resetSeconds: 10 })
    expect((await limiter.hit("k", 2, 60_000, t0 + 60_002))?.allowed).toBe(false)
    // Keys are independent.
    expect((await limiter.hit("other", 2, 60_000, t0 + 60_002))?.allowed).toBe(true)
  })

  it("counts a save's hit only when the submission exists in that form, in the same statement", async () => {
    await db.sql`INSERT INTO form_schemas (id, organisation_id, name, type, status, fields) VALUES ('f1', 'o', 'F', 'volunteer', 'published', '[]')`
    const [sub] = await db.sql<Array<{ id: string }>>`
      INSERT INTO submissions (schema_id, idempotency_key, created_at, updated_at) VALUES ('f1', 'key-0123456789abcdef', now(), now()) RETURNING id`
    const limiter = makeLimiter(db.sql)
    const unknown = "00000000-0000-4000-8000-000000000000"
    expect(await limiter.hit("write:f1:10.0.0.2", 600, hour, Date.now(), { schemaId: "f1", id: unknown })).toBeUndefined()
    expect(await limiter.hit("write:f1:10.0.0.2", 600, hour, Date.now(), { schemaId: "f2", id: sub!.id })).toBeUndefined()
    expect((await db.sql`SELECT 1 FROM rate_limit_windows WHERE key = 'write:f1:10.0.0.2'`).length).toBe(0)
    expect(await limiter.hit("write:f1:10.0.0.2", 600, hour, Date.now(), { schemaId: "f1", id: sub!.id }))
      .toMatchObject({ allowed: true, remaining: 599 })
  })

  it("sweeps other keys whose hits all left the window, never its own", async () => {
    const limiter = makeLimiter(db.sql)
    const t0 = 2_000_000_000
    await limiter.hit("old-a", 5, 1_000, t0)
    await limiter.hit("old-b", 5, 1_000, t0)
    await limiter.hit("fresh", 5, 1_000, t0 + 1_500)
    const keys = (await db.sql<Array<{ key: string }>>`SELECT key FROM rate_limit_windows WHERE key IN ('old-a', 'old-b', 'fresh')`)
      .map((r) => r.key)
    expect(keys).toEqual(["fresh"])
  })
})
