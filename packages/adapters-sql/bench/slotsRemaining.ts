/**
 * How long `remaining` takes (CONTRACT §15, issue 20): the time-slots list of a form with 200 slots and 20,000
 * holders, read through the `RegistrationData.timeSlots` port (one query: each slot with its holders counted).
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/<db> \
 *     ../../apps/server/node_modules/.bin/tsx --conditions=@forms/source bench/slotsRemaining.ts
 *
 * Runs in a schema of its own (dropped at the end); without TEST_DATABASE_URL, on an embedded PGlite. Prints the
 * median and p95 of 200 reads after 20 warm-up reads, and the statements one read costs (always 1).
 */
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { RegistrationData } from "@forms/domain"
import { EmbeddedPg } from "../src/connection/EmbeddedPg.js"
import { PgLive } from "../src/connection/PgLive.js"
import { Migrations } from "../src/migrations/Migrations.js"
import { SqlRegistrationData } from "../src/shifts/SqlRegistrationData.js"

const slots = 200
const holders = 20_000
const reads = 200
const warmup = 20
const url = process.env["TEST_DATABASE_URL"] || undefined
const schema = `forms_bench_slots_${Date.now().toString(36)}`

const execute = (statement: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(statement)).pipe(
    Effect.provide(PgLive.layer({ url: url ?? "", maxConnections: 1 }))
  )

const database = url === undefined
  ? EmbeddedPg.layer()
  : Layer.unwrap(Effect.as(
    Effect.acquireRelease(execute(`CREATE SCHEMA ${schema}`), () => Effect.ignore(execute(`DROP SCHEMA ${schema} CASCADE`))),
    PgLive.layer({ url, searchPath: schema, maxConnections: 2 })
  ))

const percentile = (sorted: ReadonlyArray<number>, p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? NaN

const program = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`INSERT INTO organisations (id, name) VALUES ('org-b', 'Bench')`
  yield* sql`INSERT INTO events (id, organisation_id, name, parent_event_id) VALUES ('ev-b', 'org-b', 'Bench festival', NULL)`
  yield* sql`INSERT INTO events (id, organisation_id, name, parent_event_id) VALUES ('ev-b-day', 'org-b', 'Bench day', 'ev-b')`
  yield* sql`INSERT INTO form_schemas (id, organisation_id, event_id, name, type, status, public_token, tags, revision)
    VALUES ('fs-b', 'org-b', 'ev-b', 'Bench', 'volunteer', 'published', 'bench-slots-token-0001', '[]', '1')`
  // 200 slots over the festival and its day; capacities 50 to 249, a tenth unlimited.
  yield* sql`INSERT INTO time_slots (id, event_id, name, date, start_time, end_time, capacity)
    SELECT 'sl-' || lpad(i::text, 4, '0'), CASE WHEN i % 2 = 0 THEN 'ev-b' ELSE 'ev-b-day' END, 'Slot ' || i,
      DATE '2027-08-20' + (i / 8), make_time((i % 8) * 3, 0, 0), make_time((i % 8) * 3 + 3, 0, 0),
      CASE WHEN i % 10 = 0 THEN NULL ELSE 50 + i END
    FROM generate_series(0, ${slots - 1}) AS i`
  // 20,000 submitted submissions, each holding one place: 100 holders per slot.
  yield* sql`INSERT INTO submissions (schema_id, idempotency_key, values, status, submitted_at, created_at, updated_at)
    SELECT 'fs-b', 'bench-key-' || lpad(i::text, 8, '0'), '{}'::jsonb, 'submitted', now(), now(), now()
    FROM generate_series(1, ${holders}) AS i`
  yield* sql`INSERT INTO slot_places (slot_id, submission_id)
    SELECT 'sl-' || lpad(((row_number() OVER (ORDER BY id) - 1) % ${slots})::text, 4, '0'), id FROM submissions`
  yield* sql`ANALYZE`
  const data = yield* RegistrationData
  const read = data.timeSlots(["ev-b", "ev-b-day"])
  const timings: Array<number> = []
  let listed = 0
  for (let i = 0; i < warmup + reads; i++) {
    const started = performance.now()
    const result = yield* read
    const took = performance.now() - started
    if (i >= warmup) timings.push(took)
    listed = result.length
    if (result.reduce((sum, slot) => sum + slot.holders, 0) !== holders) return yield* Effect.die("holders miscounted")
  }
  const [plan] = yield* sql<{ readonly "QUERY PLAN": ReadonlyArray<{ readonly "Execution Time": number }> }>`
    EXPLAIN (ANALYZE, FORMAT JSON) SELECT t.id, (SELECT count(*)::int FROM slot_places p WHERE p.slot_id = t.id) AS holders
    FROM time_slots t WHERE t.event_id = ANY(${["ev-b", "ev-b-day"]}::text[])`
  const sorted = [...timings].sort((a, b) => a - b)
  const result = {
    backend: url === undefined ? "PGlite (embedded)" : "PostgreSQL",
    slots: listed,
    holders,
    statements_per_read: 1,
    median_ms: Number(percentile(sorted, 0.5).toFixed(2)),
    p95_ms: Number(percentile(sorted, 0.95).toFixed(2)),
    server_execution_ms: plan?.["QUERY PLAN"][0]?.["Execution Time"] ?? null
  }
  console.log(JSON.stringify(result))
})

Effect.runPromise(program.pipe(
  Effect.provide(SqlRegistrationData.layer.pipe(Layer.provideMerge(Migrations.layer), Layer.provideMerge(database))),
  Effect.scoped
)).catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
