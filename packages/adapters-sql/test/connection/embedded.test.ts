import { describe, expect, it } from "@effect/vitest"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { PgClient } from "@effect/sql-pg"
import { Effect } from "effect"
import { EmbeddedPg } from "../../src/connection/EmbeddedPg.js"
import { loadFixture } from "../../src/fixture/loadFixture.js"
import { Migrations } from "../../src/migrations/Migrations.js"
import { validFixture } from "../fixtures.js"

const tempDir = Effect.acquireRelease(
  Effect.promise(() => mkdtemp(join(tmpdir(), "forms-pglite-"))),
  (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true }))
)

const schemaCount = Effect.gen(function*() {
  const sql = yield* PgClient.PgClient
  const [row] = yield* sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM form_schemas`
  return row?.n ?? -1
})

describe("EmbeddedPg", () => {
  it.live("keeps its data in dataDir across a close and a reopen; migrations then apply nothing", () =>
    Effect.gen(function*() {
      const dataDir = yield* tempDir
      const first = yield* Effect.gen(function*() {
        const applied = yield* Migrations.run
        yield* loadFixture(validFixture())
        return { applied: applied.length, schemas: yield* schemaCount }
      }).pipe(Effect.provide(EmbeddedPg.layer({ dataDir })))
      expect(first).toEqual({ applied: 30, schemas: 2 })
      const second = yield* Effect.gen(function*() {
        const applied = yield* Migrations.run
        const summary = yield* loadFixture(validFixture())
        return { applied: applied.length, schemas: yield* schemaCount, changed: summary.changed }
      }).pipe(Effect.provide(EmbeddedPg.layer({ dataDir })))
      expect(second).toEqual({ applied: 0, schemas: 2, changed: 0 })
    }), 120_000)

  it.live("serves one session: a transaction and the statements queued behind it", () =>
    Effect.gen(function*() {
      const sql = yield* PgClient.PgClient
      const results = yield* Effect.all([
        sql.withTransaction(Effect.andThen(sql`SELECT pg_sleep(0.05)`, sql<{ readonly v: number }>`SELECT 1 AS v`)),
        sql<{ readonly v: number }>`SELECT 2 AS v`,
        sql<{ readonly v: number }>`SELECT 3 AS v`
      ], { concurrency: "unbounded" })
      expect(results.map((rows) => rows[0]?.v)).toEqual([1, 2, 3])
    }).pipe(Effect.provide(EmbeddedPg.layer())), 60_000)
})
