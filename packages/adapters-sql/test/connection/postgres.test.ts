import { describe, expect, it, layer } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Queue } from "effect"
import { OrganiserForms, RateLimiter, Submissions } from "@forms/domain"
import { formDefinition } from "@forms/domain/testing"
import { PgLive, pgMultiplexConcurrency } from "../../src/connection/PgLive.js"
import { Migrations } from "../../src/migrations/Migrations.js"
import { SqlOrganiserForms } from "../../src/organiser/forms/SqlOrganiserForms.js"
import { SqlRateLimiter } from "../../src/limits/SqlRateLimiter.js"
import { outboxChannel } from "../../src/events/OutboxRecord.js"
import { ids, validFixture } from "../fixtures.js"
import { isolatedPg, seededPorts, skipReason, testDatabaseUrl } from "../support.js"

if (testDatabaseUrl === undefined) {
  console.warn(skipReason)
  describe("SQL adapter on PostgreSQL", () => it.skip(skipReason, () => {}))
} else {
  const url = testDatabaseUrl
  layer(seededPorts(isolatedPg(url), validFixture()), { timeout: "60 seconds", excludeTestServices: true })(
    "SQL adapter on PostgreSQL",
    (it) => {
      it.effect("migrations are forward-only and applied once: a second run applies nothing", () =>
        Effect.gen(function*() {
          expect(yield* Migrations.run).toEqual([])
          const sql = yield* PgClient.PgClient
          const applied = yield* sql<{ readonly migration_id: number }>`SELECT migration_id FROM forms_migrations ORDER BY 1`
          expect(applied.map((r) => r.migration_id)).toEqual([1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 20, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 35])
        }))

      it.effect("a submit with events notifies forms_outbox when it commits", () =>
        Effect.gen(function*() {
          const sql = yield* PgClient.PgClient
          const notifications = yield* sql.listen(outboxChannel)
          const submissions = yield* Submissions
          const { submission } = yield* submissions.createOrGet({
            schema_id: ids.volunteer, idempotency_key: `notify-${Date.now()}-padding`, event_id: null, subject_id: null, values: {}, language: "en"
          })
          yield* submissions.submit({
            schema_id: ids.volunteer, id: submission.id, expected_version: submission.version, values: {}, claims: [],
            submitted_at: Date.now(), events: [{ type: "submission.submitted", payload: { submission_id: submission.id } }]
          })
          const received = yield* Queue.take(notifications).pipe(Effect.timeout("5 seconds"))
          expect(received.channel).toBe(outboxChannel)
        }))

      it.effect("a limiter key locked past the lock timeout answers Unavailable, not a hang", () =>
        Effect.gen(function*() {
          const sql = yield* PgClient.PgClient
          const key = `locked-${Date.now()}`
          const [{ schema }] = (yield* sql<{ readonly schema: string }>`SELECT current_schema() AS schema`) as [{ readonly schema: string }]
          const connection = yield* sql.reserve
          // Holds the key's row in an open transaction on another session, as a stuck process would.
          yield* connection.executeRaw("BEGIN", [])
          yield* connection.executeRaw(
            `INSERT INTO ${schema}.rate_limit_windows (key, hits, last_allowed, expires_at) VALUES ($1, '{}', true, 0)`, [key])
          // Layer.fresh: the shared test layer has memoised SqlRateLimiter.layer on the other pool.
          const impatient = Layer.fresh(SqlRateLimiter.layer).pipe(
            Layer.provide(PgLive.layer({ url, statementTimeout: "300 millis", searchPath: schema, maxConnections: 1 }))
          )
          const started = Date.now()
          const error = yield* Effect.flip(Effect.flatMap(RateLimiter, (l) => l.hit(key, 10, 60_000)).pipe(Effect.provide(impatient)))
          expect(error._tag).toBe("Unavailable")
          expect(Date.now() - started).toBeLessThan(3_000)
          yield* connection.executeRaw("ROLLBACK", [])
        }))

      it.effect("a form's edit does not wait for a public write referring to the form; its delete does", () =>
        Effect.gen(function*() {
          const sql = yield* PgClient.PgClient
          const [{ schema }] = (yield* sql<{ readonly schema: string }>`SELECT current_schema() AS schema`) as [{ readonly schema: string }]
          const actor = { organisation_id: ids.organisation, api_key_id: null }
          const form = yield* Effect.flatMap(OrganiserForms, (forms) =>
            forms.createForm(actor, { definition: formDefinition(), public_token: null }, Date.now()))
          // An open transaction on another session holding what a public write's foreign-key check to the form
          // holds (FOR KEY SHARE), as a submit with places does until it commits.
          const connection = yield* sql.reserve
          yield* connection.executeRaw("BEGIN", [])
          yield* connection.executeRaw(`SELECT 1 FROM ${schema}.form_schemas WHERE id = $1 FOR KEY SHARE`, [form.id])
          const impatient = Layer.fresh(SqlOrganiserForms.layer).pipe(
            Layer.provide(PgLive.layer({ url, statementTimeout: "300 millis", searchPath: schema, maxConnections: 1 }))
          )
          const patched = yield* Effect.flatMap(OrganiserForms, (forms) =>
            forms.patchForm(actor, form.id, { name: "Renamed" }, form.revision, Date.now())).pipe(Effect.provide(impatient))
          expect([patched.name, patched.revision]).toEqual(["Renamed", form.revision + 1])
          const waited = yield* Effect.flip(Effect.flatMap(OrganiserForms, (forms) => forms.deleteForm(actor, form.id, Date.now())).pipe(
            Effect.provide(impatient)
          ))
          expect(waited._tag).toBe("Unavailable")
          yield* connection.executeRaw("ROLLBACK", [])
          yield* Effect.flatMap(OrganiserForms, (forms) => forms.deleteForm(actor, form.id, Date.now())).pipe(Effect.provide(impatient))
        }).pipe(Effect.provide(SqlOrganiserForms.layer)))

      it.effect("statements outside a transaction share connections, up to pgMultiplexConcurrency each", () =>
        Effect.gen(function*() {
          const [{ schema }] = (yield* (yield* PgClient.PgClient)<{ readonly schema: string }>`SELECT current_schema() AS schema`) as [{ readonly schema: string }]
          // A pool of its own, so that no other test's connections are counted.
          const backends = (n: number, multiplexConcurrency?: number) =>
            Effect.gen(function*() {
              const sql = yield* PgClient.PgClient
              const pids = yield* Effect.all(
                Array.from({ length: n }, () => sql<{ readonly pid: number }>`SELECT pg_backend_pid() AS pid, pg_sleep(0.2)`),
                { concurrency: "unbounded" }
              )
              return new Set(pids.map((rows) => rows[0]?.pid)).size
            }).pipe(Effect.provide(Layer.fresh(PgLive.layer({ url, searchPath: schema, multiplexConcurrency }))))
          // 16 statements of 0.2 s at once (longer than opening the connections): two connections when shared by 8,
          // one each, up to the pool's 10, when not.
          expect(yield* backends(16)).toBe(Math.ceil(16 / pgMultiplexConcurrency))
          expect(yield* backends(16, 1)).toBe(10)
        }))
    }
  )
}
