import { readFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { identityKey, submissionTags } from "./enrichment.js"
import { deliverBatch } from "./outbox.js"
import { type BenchFixture, loadReferenceFixture } from "./schema.js"
import { openTestSchema, testDatabaseUrl } from "./testDb.js"

const fixture = JSON.parse(readFileSync(new URL("../../fixture.json", import.meta.url), "utf8")) as BenchFixture
const form = fixture.form_schemas[0]!

describe("tag sync and identity match, as ours computes them", () => {
  it("tags: the form's tags plus the chosen options' tags, a set sorted by code unit", () => {
    const f = form as unknown as Parameters<typeof submissionTags>[0]
    expect(submissionTags(f, { roles: ["stage", " bar ", "security"] })).toEqual(["bar", "stage", "volunteer"])
    expect(submissionTags(f, { roles: "bar", country: "NL" })).toEqual(["bar", "volunteer"])
    expect(submissionTags({ tags: ["z", "B"], fields: [{ slug: "n", type: "select", position: 1, options: [{ value: "1", tags: ["a", "z"] }] }] }, { n: 1 }))
      .toEqual(["B", "a", "z"])
  })

  it("key: the first email field's value lower-cased, else the first phone field's digits, else none", () => {
    const fields = [
      { slug: "phone", type: "phone", position: 2, options: null },
      { slug: "mail2", type: "email", position: 3, options: null },
      { slug: "mail1", type: "email", position: 1, options: null }
    ]
    expect(identityKey({ tags: [], fields }, { mail1: " Ann@Example.ORG ", mail2: "b@x.org" })).toBe("ann@example.org")
    expect(identityKey({ tags: [], fields }, { mail1: " ", mail2: "B@x.org" })).toBe("b@x.org")
    expect(identityKey({ tags: [], fields }, { phone: "+31 6 1234-5678" })).toBe("31612345678")
    expect(identityKey({ tags: [], fields }, { phone: "n/a" })).toBeNull()
  })
})

describe.skipIf(testDatabaseUrl === undefined)("the reference's outbox consumer on PostgreSQL", () => {
  let db: Awaited<ReturnType<typeof openTestSchema>>
  beforeAll(async () => {
    db = await openTestSchema()
    await loadReferenceFixture(db.sql, fixture)
  })
  afterAll(async () => {
    await db.close()
  })

  const submit = async (key: string, values: Record<string, unknown>, schemaId = form.id) => {
    const [row] = await db.sql<Array<{ id: string }>>`
      INSERT INTO submissions (schema_id, idempotency_key, status, values, created_at, updated_at, submitted_at)
      VALUES (${form.id}, ${key}, 'submitted', ${JSON.stringify(values)}::text::jsonb, now(), now(), now()) RETURNING id`
    const payload = { submission_id: row!.id, schema_id: schemaId, organisation_id: form.organisation_id, event_id: null, values }
    await db.sql`INSERT INTO outbox (type, payload, available_at, created_at)
      VALUES ('submission.submitted', ${JSON.stringify(payload)}::text::jsonb, now(), now())`
    return row!.id
  }

  it("delivers a batch: submissions' tags and contacts set, contacts carry the union of their submissions' tags", async () => {
    const a = await submit("key-a-0123456789abcdef", { email: "Ann@Example.org", roles: ["bar"] })
    const b = await submit("key-b-0123456789abcdef", { email: "ann@example.org", roles: ["stage"] })
    const c = await submit("key-c-0123456789abcdef", { email: "bob@example.org" })
    expect(await deliverBatch(db.sql)).toBe(3)
    const subs = await db.sql<Array<{ id: string; tags: Array<string>; key: string }>>`
      SELECT s.id::text AS id, s.tags, c.key FROM submissions s JOIN contacts c ON c.id = s.contact_id ORDER BY s.idempotency_key`
    expect(subs).toEqual([
      { id: a, tags: ["bar", "volunteer"], key: "ann@example.org" },
      { id: b, tags: ["stage", "volunteer"], key: "ann@example.org" },
      { id: c, tags: ["volunteer"], key: "bob@example.org" }
    ])
    const contacts = await db.sql<Array<{ key: string; tags: Array<string> }>>`SELECT key, tags FROM contacts ORDER BY key`
    expect(contacts).toEqual([
      { key: "ann@example.org", tags: ["bar", "stage", "volunteer"] },
      { key: "bob@example.org", tags: ["volunteer"] }
    ])
    const [left] = await db.sql<Array<{ n: number }>>`SELECT count(*)::int AS n FROM outbox WHERE delivered_at IS NULL`
    expect(left?.n).toBe(0)
    expect(await deliverBatch(db.sql)).toBe(0)
  })

  it("changes nothing when the same events are delivered again (at least once)", async () => {
    const before = await db.sql`SELECT s.id, s.tags, s.contact_id, c.tags AS contact_tags FROM submissions s JOIN contacts c ON c.id = s.contact_id ORDER BY s.id`
    await db.sql`UPDATE outbox SET delivered_at = NULL`
    expect(await deliverBatch(db.sql)).toBe(3)
    const after = await db.sql`SELECT s.id, s.tags, s.contact_id, c.tags AS contact_tags FROM submissions s JOIN contacts c ON c.id = s.contact_id ORDER BY s.id`
    expect([...after]).toEqual([...before])
    expect((await db.sql`SELECT 1 FROM contacts`).length).toBe(2)
  })

  it("takes at most 100 events a batch, and counts a failed attempt with a backoff for an event whose form is gone", async () => {
    await db.sql`UPDATE outbox SET delivered_at = now()`
    for (let i = 0; i < 101; i++) await submit(`key-many-${i}-0123456789abcdef`, { email: `p${i}@example.org` })
    await submit("key-orphan-0123456789abcdef", { email: "orphan@example.org" }, "no-such-form")
    expect(await deliverBatch(db.sql)).toBe(100)
    expect(await deliverBatch(db.sql)).toBe(2)
    const [orphan] = await db.sql<Array<{ attempts: number; last_error: string; later: boolean; delivered: boolean }>>`
      SELECT attempts, last_error, available_at > now() AS later, delivered_at IS NOT NULL AS delivered
      FROM outbox WHERE payload->>'schema_id' = 'no-such-form'`
    expect(orphan).toMatchObject({ attempts: 1, later: true, delivered: false })
    expect(orphan?.last_error).toMatch(/cannot be found/)
    expect(await deliverBatch(db.sql)).toBe(0)
    const [contacts] = await db.sql<Array<{ n: number }>>`SELECT count(*)::int AS n FROM contacts`
    expect(contacts?.n).toBe(103)
  })
})
