/**
 * The database gauges on a real (embedded) database: the outbox's pending and dead events and the oldest pending
 * one's age, read at most once per 5 seconds (a change within the window is seen only after it).
 */
import { assert, describe, it } from "@effect/vitest"
import { Duration, Effect, Metric } from "effect"
import { TestClock } from "effect/testing"
import { SqlClient } from "effect/sql"
import { EmbeddedPg, Migrations } from "@forms/adapters-sql"
import { databaseGauges, gaugeCacheTtl, makeOperationsGauges } from "../src/operations/operationsGauges.js"

const read = (gauge: Metric.Gauge<number>) => Effect.map(Metric.value(gauge), (state) => Number(state.value))
const { connections, dead, messages, oldestAge, pending } = databaseGauges

const insertMessage = (status: "held" | "pending" | "sent" | "failed") =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`INSERT INTO messages (organisation_id, kind, to_address, subject, body, status, due_at, created_at)
        VALUES ('org-gauges', 'notification', 'crew@example.org', 'Subject', 'Body', ${status}, now(), now())`)

const insertEvent = (state: "pending" | "dead", createdAt: Date) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql`INSERT INTO outbox (type, payload, available_at, created_at, dead_at)
        VALUES ('submission.submitted', '{}'::jsonb, ${createdAt}, ${createdAt}, ${state === "dead" ? createdAt : null})`)

describe("the operations gauges", () => {
  it.effect("count pending and dead events, age the oldest pending one, and read the database at most every 5 s", () =>
    Effect.gen(function*() {
      yield* Migrations.run
      yield* TestClock.setTime(Date.parse("2027-08-20T12:00:00Z"))
      yield* insertEvent("pending", new Date("2027-08-20T11:58:00Z"))
      yield* insertEvent("dead", new Date("2027-08-20T10:00:00Z"))
      const refresh = yield* makeOperationsGauges({ embedded: true })
      yield* refresh
      assert.strictEqual(yield* read(pending), 1)
      assert.strictEqual(yield* read(dead), 1)
      assert.strictEqual(yield* read(oldestAge), 120)
      assert.strictEqual(yield* read(connections("open")), 1)

      // Within the window the database is not read again: the new events are not seen yet.
      yield* insertEvent("pending", new Date("2027-08-20T11:59:00Z"))
      yield* insertEvent("dead", new Date("2027-08-20T11:59:00Z"))
      yield* TestClock.adjust(Duration.subtract(gaugeCacheTtl, Duration.millis(1)))
      yield* refresh
      assert.strictEqual(yield* read(pending), 1)
      assert.strictEqual(yield* read(dead), 1)

      // After it, they are.
      yield* TestClock.adjust(Duration.millis(1))
      yield* refresh
      assert.strictEqual(yield* read(pending), 2)
      assert.strictEqual(yield* read(dead), 2)
      assert.strictEqual(yield* read(oldestAge), 125)
    }).pipe(Effect.provide(EmbeddedPg.layer())), { timeout: 120_000 })

  it.effect("count messages by status, every status shown (0 when none), read at most every 5 s", () =>
    Effect.gen(function*() {
      yield* Migrations.run
      yield* TestClock.setTime(Date.parse("2027-08-20T12:00:00Z"))
      const sql = yield* SqlClient.SqlClient
      yield* sql`INSERT INTO organisations (id, name) VALUES ('org-gauges', 'Gauges')`
      for (const status of ["held", "held", "pending", "sent", "sent", "sent"] as const) yield* insertMessage(status)
      const refresh = yield* makeOperationsGauges({ embedded: true })
      yield* refresh
      const counts = Effect.all({
        held: read(messages("held")),
        pending: read(messages("pending")),
        sent: read(messages("sent")),
        failed: read(messages("failed"))
      })
      assert.deepStrictEqual(yield* counts, { held: 2, pending: 1, sent: 3, failed: 0 })
      yield* insertMessage("failed")
      yield* TestClock.adjust(Duration.subtract(gaugeCacheTtl, Duration.millis(1)))
      yield* refresh
      assert.strictEqual(yield* read(messages("failed")), 0)
      yield* TestClock.adjust(Duration.millis(1))
      yield* refresh
      assert.deepStrictEqual(yield* counts, { held: 2, pending: 1, sent: 3, failed: 1 })
    }).pipe(Effect.provide(EmbeddedPg.layer())), { timeout: 120_000 })
})
