/** The `RateLimiter` port on PostgreSQL: a sliding window per key, shared by every process on the database. */
import { Clock, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { type RateLimitDecision, RateLimiter } from "@forms/domain"
import { sqlFailure } from "../SqlFailure.js"

// Built once: each captures its definition stack, which a per-call `withSpan` would capture on every call.
const spanHit = Effect.withSpan("SqlRateLimiter.hit")

/** The first key of the two-key advisory lock, so the limiter's locks never meet another feature's. */
const lockClass = 0x466f726d // "Form"

/** Expired hits of any key removed per hit, so keys that are never hit again do not stay forever. */
const sweepBatch = 100

export const makeSqlRateLimiter = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const hit = (key: string, limit: number, windowMs: number) =>
    sql.withTransaction(Effect.gen(function*() {
      // Time from Effect's Clock (never the server's now()), so tests drive it with TestClock.
      const now = yield* Clock.currentTimeMillis
      const since = now - windowMs
      // Requests for one key queue here until the previous one commits: no two count the same free slot.
      yield* sql`SELECT pg_advisory_xact_lock(${lockClass}, hashtext(${key}))`
      // One statement under the lock: count the window, insert this hit when a slot is free, drop the key's
      // old hits and sweep a batch of expired ones. The CTEs see the snapshot before the insert, so `n` is
      // the count without this hit. Both deletes skip rows another transaction holds: a sweep of another key
      // may hold this key's expired rows while this one holds that key's, and waiting would deadlock (40P01).
      const [counted] = yield* sql<{ readonly n: number; readonly oldest: number | null }>`
        WITH c AS (
          SELECT count(*)::int AS n, min(at)::float8 AS oldest
          FROM rate_limit_hits WHERE key = ${key} AND at > ${since}::bigint
        ), ins AS (
          INSERT INTO rate_limit_hits (key, at, expires_at)
          SELECT ${key}, ${now}::bigint, ${now + windowMs}::bigint FROM c WHERE c.n < ${limit}::int
        ), old AS (
          DELETE FROM rate_limit_hits WHERE id IN (
            SELECT id FROM rate_limit_hits WHERE key = ${key} AND at <= ${since}::bigint
            FOR UPDATE SKIP LOCKED)
        ), sweep AS (
          DELETE FROM rate_limit_hits WHERE id IN (
            SELECT id FROM rate_limit_hits WHERE expires_at <= ${now}::bigint LIMIT ${sweepBatch}
            FOR UPDATE SKIP LOCKED)
        )
        SELECT n, oldest FROM c`
      const n = counted?.n ?? 0
      const allowed = n < limit
      const counts = allowed ? n + 1 : n
      const oldest = counted?.oldest ?? (allowed ? now : null)
      const decision: RateLimitDecision = {
        allowed,
        remaining: allowed ? Math.max(0, limit - counts) : 0,
        reset_ms: oldest === null || counts === 0 ? 0 : Math.max(0, oldest + windowMs - now)
      }
      return decision
    })).pipe(Effect.catchTag("SqlError", sqlFailure), spanHit)

  return RateLimiter.of({ hit })
})

export const SqlRateLimiter = {
  layer: Layer.effect(RateLimiter, makeSqlRateLimiter)
} as const
