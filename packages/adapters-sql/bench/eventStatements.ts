/**
 * What the event dispatcher costs the database (issue 23): statements and round trips for one `dispatchBatch`
 * of N `submission.submitted` events with the built-in handlers (tag sync, identity match), counted by the
 * bench's protocol proxy (bench/src/pgProxy.ts) in front of PostgreSQL.
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/<db> \
 *     ../../apps/server/node_modules/.bin/tsx --conditions=@forms/source bench/eventStatements.ts
 *
 * Runs in a schema of its own (dropped at the end). Prints one JSON line per batch size. EVENT_BATCH_SIZES (default
 * 1,20,100) sets the batches, EVENT_SCHEMA_CACHE=1 adds the server's FormSchemaCache.
 */
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { InProcessSignal } from "@forms/domain"
import { dispatchBatch } from "@forms/domain/internal"
import { portalFixture } from "@forms/domain/testing"
import { diffCounts, startCountingProxy } from "../../../bench/src/pgProxy.js"
import { FormSchemaCache } from "../src/forms/FormSchemaCache.js"
import { PgLive } from "../src/connection/PgLive.js"
import { registryWith, submitVolunteer, values } from "../test/events/events.js"
import { seededPortalPorts } from "../test/support.js"

const url = process.env["TEST_DATABASE_URL"]
if (url === undefined || url === "") throw new Error("TEST_DATABASE_URL is required")
const schema = `forms_bench_events_${Date.now().toString(36)}`
const sizes = (process.env["EVENT_BATCH_SIZES"] ?? "1,20,100").split(",").map(Number)

const execute = (statement: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(statement)).pipe(Effect.provide(PgLive.layer({ url, maxConnections: 1 })))

const main = Effect.gen(function*() {
  const upstream = new URL(url)
  const proxy = yield* Effect.promise(() => startCountingProxy(upstream.hostname, Number(upstream.port || "5432")))
  const proxied = new URL(url)
  proxied.hostname = "127.0.0.1"
  proxied.port = String(proxy.port)
  // EVENT_SCHEMA_CACHE=1: with the server's schema cache (its listener connects directly, not through the proxy).
  const cache = process.env["EVENT_SCHEMA_CACHE"] === "1" ? FormSchemaCache.listening({ url, schema }) : Layer.empty
  const ports = seededPortalPorts(PgLive.layer({ url: proxied.toString(), searchPath: schema, maxConnections: 10 }), portalFixture, InProcessSignal.layer)
    .pipe(Layer.provide(cache))
  yield* Effect.gen(function*() {
    let n = 0
    for (const size of sizes) {
      yield* Effect.forEach(Array.from({ length: size }), () => submitVolunteer(values({ email: `person${++n}@example.nl`, shirt: "M" })))
      const registry = yield* registryWith([])
      const before = proxy.snapshot()
      const result = yield* dispatchBatch({ batchSize: size }).pipe(Effect.provide(registry))
      const counts = diffCounts(proxy.snapshot(), before)
      if (result.delivered !== size) return yield* Effect.die(`delivered ${result.delivered} of ${size}`)
      console.log(JSON.stringify({ events: size, statements: counts.statements, round_trips: counts.roundTrips,
        per_event: Number((counts.statements / size).toFixed(2)) }))
    }
  }).pipe(Effect.provide(ports))
  yield* Effect.promise(() => proxy.close())
})

Effect.runPromise(Effect.scoped(Effect.gen(function*() {
  yield* Effect.acquireRelease(execute(`CREATE SCHEMA ${schema}`), () => Effect.ignore(execute(`DROP SCHEMA ${schema} CASCADE`)))
  yield* main
}))).catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
