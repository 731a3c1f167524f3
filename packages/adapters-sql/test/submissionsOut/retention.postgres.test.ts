import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { Retention } from "@forms/domain"
import { Migrations } from "../../src/migrations/Migrations.js"
import { retentionBatchRows, SqlRetention } from "../../src/submissionsOut/SqlRetention.js"
import { isolatedPg, skipReason, testDatabaseUrl } from "../support.js"

const day = 86_400_000
const now = Date.parse("2028-01-01T00:00:00.000Z")
const cutoffs = { draftsUpdatedBefore: now - 180 * day, deliveredBefore: now - 30 * day }

/** `count` drafts of a fresh form, all last updated a year before `now`. */
const oldDrafts = (count: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const org = `org-${Math.random().toString(36).slice(2)}`
    yield* sql`INSERT INTO organisations (id, name) VALUES (${org}, 'Org')`
    yield* sql`INSERT INTO form_schemas (id, organisation_id, name, type, status, revision) VALUES (${`${org}-f`}, ${org}, 'F', 'volunteer', 'published', 1)`
    yield* sql`INSERT INTO submissions (schema_id, idempotency_key, created_at, updated_at)
      SELECT ${`${org}-f`}, 'k' || n, ${new Date(now - 365 * day)}::timestamptz, ${new Date(now - 365 * day)}::timestamptz
      FROM generate_series(1, ${count}) AS n`
    return `${org}-f`
  })

if (testDatabaseUrl === undefined) {
  console.warn(skipReason)
  describe("retention sweep on PostgreSQL", () => it.skip(skipReason, () => {}))
} else {
  const url = testDatabaseUrl
  layer(SqlRetention.layer.pipe(Layer.provideMerge(Migrations.layer), Layer.provideMerge(isolatedPg(url))), {
    timeout: 120_000,
    excludeTestServices: true
  })("retention sweep on PostgreSQL", (it) => {
    it.effect("one process at a time: while another holds the sweep's lock, a sweep does nothing", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const retention = yield* Retention
        const form = yield* oldDrafts(5)
        const left = Effect.map(sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM submissions WHERE schema_id = ${form}`, (r) => r[0]?.n)
        // Another process's sweep: the same transaction-scoped advisory lock, held on a connection of its own.
        yield* Effect.scoped(Effect.gen(function*() {
          const other = yield* sql.reserve
          yield* other.executeUnprepared("BEGIN", [], undefined)
          yield* other.executeUnprepared("SELECT pg_advisory_xact_lock(hashtextextended('forms_retention_sweep:' || current_schema(), 0))", [], undefined)
          expect(yield* retention.sweep(cutoffs)).toEqual({ ran: false, drafts_deleted: 0, payloads_emptied: 0 })
          expect(yield* left).toBe(5)
          yield* other.executeUnprepared("ROLLBACK", [], undefined)
        }))
        const swept = yield* retention.sweep(cutoffs)
        expect(swept.ran).toBe(true)
        expect(yield* left).toBe(0)
      }))

    it.effect("two sweeps at once over a backlog of several batches: every draft deleted once, counted once", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const retention = yield* Retention
        // Drafts of earlier tests are gone; only these are due.
        const count = retentionBatchRows * 2 + 345
        const form = yield* oldDrafts(count)
        const results = yield* Effect.all([retention.sweep(cutoffs), retention.sweep(cutoffs)], { concurrency: "unbounded" })
        expect(results[0].drafts_deleted + results[1].drafts_deleted).toBe(count)
        const [row] = yield* sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM submissions WHERE schema_id = ${form}`
        expect(row?.n).toBe(0)
      }))
  })
}
