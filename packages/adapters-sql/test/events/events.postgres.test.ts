import { describe, expect, it, layer } from "@effect/vitest"
import { Clock, Effect, Fiber, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { EventHandlers, OutboxSignal } from "@forms/domain"
import { dispatchBatch } from "@forms/domain/internal"
import { claimAll, portalFixture } from "@forms/domain/testing"
import { PgLive } from "../../src/connection/PgLive.js"
import { SqlOutbox } from "../../src/events/SqlOutbox.js"
import { makeSqlOutboxSignal, SqlOutboxSignal } from "../../src/events/SqlOutboxSignal.js"
import { counting, eventScenarios, fresh, submitRace, submitVolunteer, values } from "./events.js"
import { isolatedPg, seededPortalPorts, skipReason, testDatabaseUrl, testSchemaName } from "../support.js"

/** Consumes wake-ups left over (a connect's catch-up, earlier commits). */
const quiet = (signal: OutboxSignal["Service"]) =>
  Effect.gen(function*() {
    while (yield* signal.wait(50)) {
      // another wake-up was pending
    }
  })

if (testDatabaseUrl === undefined) {
  console.warn(skipReason)
  describe("lifecycle events on PostgreSQL", () => it.skip(skipReason, () => {}))
} else {
  const url = testDatabaseUrl
  const schema = testSchemaName()
  // Each dispatcher below gets a pool of its own on this schema: separate connections, one database.
  const ownPool = () => PgLive.layer({ url, searchPath: schema, maxConnections: 2 })
  layer(seededPortalPorts(isolatedPg(url, 10, schema), portalFixture, SqlOutboxSignal.layer({ url, schema })), {
    timeout: "120 seconds",
    excludeTestServices: true
  })("lifecycle events on PostgreSQL", (it) => {
    eventScenarios(it, ownPool)

    it.effect("two dispatchers on separate connections deliver each of 60 events exactly once between them", () =>
      Effect.gen(function*() {
        yield* claimAll(() => false)
        const at = (yield* Clock.currentTimeMillis) - 10_000
        yield* Effect.forEach(Array.from({ length: 60 }, (_, i) => i), (i) => submitRace(i, at), { concurrency: 8 })
        const { calls, handler } = counting("section.submitted")
        const slow = { ...handler, handle: (event: Parameters<typeof handler.handle>[0]) => Effect.andThen(handler.handle(event), Effect.sleep("3 millis")) }
        const dispatcher = Effect.gen(function*() {
          let delivered = 0
          for (;;) {
            const batch = yield* dispatchBatch({ batchSize: 4 })
            delivered += batch.delivered
            if (batch.claimed === 0) return delivered
          }
        }).pipe(Effect.provide(Layer.mergeAll(SqlOutbox.layer, EventHandlers.layer([slow])).pipe(Layer.provide(ownPool()))))
        const [a, b] = yield* Effect.all([dispatcher, dispatcher], { concurrency: 2 })
        expect(a + b).toBe(60)
        expect(a > 0 && b > 0).toBe(true)
        expect(calls.size).toBe(60)
        expect([...calls.values()].every((n) => n === 1)).toBe(true)
        const sql = yield* SqlClient.SqlClient
        const pending = yield* sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM outbox WHERE delivered_at IS NULL`
        expect(pending[0]?.n).toBe(0)
      }))

    it.effect("LISTEN: a commit wakes a signal of another process within a second; other schemas' NOTIFYs do not", () =>
      Effect.scoped(Effect.gen(function*() {
        // Its own listener: the ports were built with another signal, so only a NOTIFY can wake this one.
        const signal = yield* makeSqlOutboxSignal({ url, schema })
        yield* quiet(signal)
        const sql = yield* SqlClient.SqlClient
        yield* sql`SELECT pg_notify('forms_outbox', ${`${schema}_other`})`
        expect(yield* signal.wait(300)).toBe(false)

        const started = Date.now()
        const waiter = yield* Effect.forkChild(signal.wait(5_000))
        yield* submitRace(1_000, yield* Clock.currentTimeMillis)
        expect(yield* Fiber.join(waiter)).toBe(true)
        expect(Date.now() - started).toBeLessThan(1_000)

        yield* quiet(signal)
        const again = yield* Effect.forkChild(signal.wait(5_000))
        yield* submitVolunteer(values({ email: `${fresh("listen")}@example.nl` }))
        expect(yield* Fiber.join(again)).toBe(true)
        yield* claimAll(() => false)
      })))

    it.effect("the listener reconnects after its connection is killed, wakes once, and wakes on commits again", () =>
      Effect.scoped(Effect.gen(function*() {
        const applicationName = fresh("forms-listen-test")
        const signal = yield* makeSqlOutboxSignal({ url, schema, applicationName, reconnectDelay: "50 millis" })
        const sql = yield* SqlClient.SqlClient
        const listeners = sql<{ readonly pid: number }>`SELECT pid FROM pg_stat_activity
          WHERE application_name = ${applicationName} AND state = 'idle' AND query ILIKE 'LISTEN%'`
        const [before] = yield* listeners
        if (before === undefined) return expect.fail("no listening session")
        yield* quiet(signal)
        yield* sql`SELECT pg_terminate_backend(${before.pid})`
        // The reconnect's catch-up wake-up, then a new listening session.
        expect(yield* signal.wait(5_000)).toBe(true)
        yield* Effect.gen(function*() {
          for (;;) {
            const now = yield* listeners
            if (now.length === 1 && now[0]?.pid !== before.pid) return
            yield* Effect.sleep("20 millis")
          }
        }).pipe(Effect.timeout("5 seconds"))
        yield* quiet(signal)
        const waiter = yield* Effect.forkChild(signal.wait(5_000))
        yield* submitRace(2_000, yield* Clock.currentTimeMillis)
        expect(yield* Fiber.join(waiter)).toBe(true)
        yield* claimAll(() => false)
      })))
  })
}
