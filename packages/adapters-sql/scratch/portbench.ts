import { Effect, Layer, References } from "effect"
import { SqlClient } from "effect/sql"
import { RateLimiter, Submissions } from "@forms/domain"
import { PgLive } from "../src/connection/PgLive.js"
import { SqlRateLimiter } from "../src/ports/SqlRateLimiter.js"
import { SqlSubmissions } from "../src/ports/SqlSubmissions.js"

const url = process.env["DATABASE_URL"]!
const N = 6000, C = 16
const cpuUs = () => { const u = process.cpuUsage(); return u.user + u.system }
const schemaId = process.env["SCHEMA_ID"] ?? "fs-bench-volunteers"
const run = Math.random().toString(36).slice(2, 8)

const measure = (name: string, op: (i: number) => Effect.Effect<unknown, unknown>) =>
  Effect.gen(function*() {
    for (let round = 0; round < 2; round++) {
      const c0 = cpuUs(); const t0 = Date.now()
      let next = 0
      yield* Effect.all(Array.from({ length: C }, () => Effect.gen(function*() {
        while (next < N) yield* op(next++ + round * N)
      })), { concurrency: "unbounded" })
      if (round === 1) console.log(`${name.padEnd(28)} ${((cpuUs() - c0) / N).toFixed(1)} µs CPU/call, ${(N / (Date.now() - t0) * 1000).toFixed(0)}/s`)
    }
  })

const main = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const limiter = yield* RateLimiter
  const submissions = yield* Submissions
  yield* measure("SELECT 1 param", (i) => sql`SELECT ${i}::int AS n`)
  yield* measure("limiter.hit", (i) => limiter.hit(`pb-${run}-${i}`, 600, 3_600_000))
  const ids: Array<string> = []
  yield* measure("createOrGet", (i) => Effect.map(submissions.createOrGet({ schema_id: schemaId, idempotency_key: `pb-${run}-${i}-padding`, event_id: null, subject_id: null, values: {} }), (r) => { ids[i] = r.submission.id }))
  yield* measure("findInSchema", (i) => submissions.findInSchema(schemaId, ids[i]!))
  yield* measure("save", (i) => submissions.save(schemaId, ids[i]!, { city: "Gent", diet: "vegan", motivation: "x".repeat(60) }))
  yield* measure("raw update returning *", (i) => sql`UPDATE submissions SET auto_save_count = auto_save_count + 1 WHERE id = ${ids[i]!}::uuid RETURNING *`)
  yield* measure("raw select *", (i) => sql`SELECT * FROM submissions WHERE id = ${ids[i]!}::uuid`)
})
const layer = Layer.mergeAll(SqlRateLimiter.layer, SqlSubmissions.layer).pipe(Layer.provideMerge(PgLive.layer({ url, maxConnections: 10 })))
await Effect.runPromise(main.pipe(Effect.provide(layer), Effect.provideService(References.TracerEnabled, false)) as Effect.Effect<void>)
