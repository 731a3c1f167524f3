/**
 * Migration 0015 on a database whose limiter holds hits in `rate_limit_hits` (the layout before it): the
 * windows in progress keep their counts, and a key that was full stays full until its oldest hit leaves.
 */
import { expect, layer } from "@effect/vitest"
import { PgMigrator } from "@effect/sql-pg"
import type { PgClient } from "@effect/sql-pg"
import { NodeServices } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { SqlClient } from "effect/sql"
import { RateLimiter } from "@forms/domain"
import { Migrations } from "../../src/migrations/Migrations.js"
import { SqlRateLimiter } from "../../src/limits/SqlRateLimiter.js"

const before0015 = PgMigrator.run({
  loader: PgMigrator.fromRecord(
    Object.fromEntries(Object.entries(Migrations.migrations).filter(([name]) => name < "0015"))
  ),
  table: Migrations.table
}).pipe(Effect.provide(NodeServices.layer))

const hourMs = 3_600_000

/** Hits after the migration, on a test clock set after `t0` (the migrations and the embedded database keep real time). */
const afterMigration = (t0: number) =>
  Effect.gen(function*() {
    const limiter = yield* Effect.provide(Effect.gen(function*() { return yield* RateLimiter }), SqlRateLimiter.layer)
    yield* TestClock.setTime(t0 + 120_000)
    expect(yield* limiter.hit("full", 3, hourMs)).toEqual({ allowed: false, remaining: 0, reset_ms: hourMs - 120_000 })
    expect(yield* limiter.hit("half", 3, hourMs)).toEqual({ allowed: true, remaining: 1, reset_ms: hourMs - 120_000 })
    // The oldest of "full" left the window: one place again, and the next hit is refused.
    yield* TestClock.setTime(t0 + hourMs)
    expect(yield* limiter.hit("full", 3, hourMs)).toEqual({ allowed: true, remaining: 0, reset_ms: 60_000 })
    expect((yield* limiter.hit("full", 3, hourMs)).allowed).toBe(false)
  }).pipe(Effect.provide(TestClock.layer()))

export const rateLimitMigrationScenarios = (
  name: string,
  database: Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, unknown>
): void =>
  layer(database, { timeout: "120 seconds", excludeTestServices: true })(name, (it) => {
    it.effect("hits counted before 0015 still count after it, and leave the window at their own time", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* before0015
        const t0 = 1_800_000_000_000
        // "full": three hits of a limit of 3 (one at t0, two a minute later); "half": one hit.
        for (const [key, at] of [["full", t0], ["full", t0 + 60_000], ["full", t0 + 60_000], ["half", t0]] as const) {
          yield* sql`INSERT INTO rate_limit_hits (key, at, expires_at) VALUES (${key}, ${at}::bigint, ${at + hourMs}::bigint)`
        }
        yield* Migrations.run
        yield* afterMigration(t0)
        const tables = yield* sql<{ readonly n: number }>`
          SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'rate_limit_hits' AND table_schema = current_schema()`
        expect(tables[0]?.n).toBe(0)
      }))
  })
