/** The `RateLimiter` port on PostgreSQL: a sliding window per key, shared by every process on the database. */
import { Clock, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { type RateLimitDecision, RateLimiter, type SubmissionRef } from "@forms/domain"
import { sqlFailure } from "../sql/SqlFailure.js"
import { isUuid } from "../sql/sqlValues.js"

/** Every this many hits, the process deletes a batch of keys whose window is empty (`sweep`). */
export const sweepEvery = 100
/** Keys deleted per sweep at most. */
const sweepBatch = 500

interface Counted {
  readonly allowed: boolean
  /** The hits counted in the window after this one. */
  readonly n: number
  readonly oldest: number | null
}

export const makeSqlRateLimiter = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  let hitsSinceSweep = 0

  /**
   * One statement, no transaction (migration 0015): the upsert takes the key's row lock, so hits of one key
   * queue there and no two count the same free place (`ON CONFLICT DO UPDATE` reads the latest committed row).
   * The times that left the window are dropped, and this hit is appended only while fewer than `limit` remain.
   */
  const count = (key: string, limit: number, windowMs: number, now: number, submission?: SubmissionRef) => {
    const since = now - windowMs
    const kept = sql`ARRAY(SELECT h FROM unnest(w.hits) AS h WHERE h > ${since}::bigint)`
    const counts = sql`cardinality(${kept}) < ${limit}::int`
    // With a submission: nothing is inserted, so nothing counted and no row returned, unless it exists (its
    // primary key only: see SqlSubmissions.selectInSchema on generic plans).
    const exists = submission === undefined ? sql`` : sql`WHERE EXISTS (SELECT 1 FROM submissions s
      WHERE s.id = ${submission.id}::uuid AND s.schema_id IS NOT DISTINCT FROM ${submission.schema_id})`
    return sql<Counted>`
      INSERT INTO rate_limit_windows AS w (key, hits, last_allowed, expires_at)
      SELECT ${key}, CASE WHEN ${limit}::int > 0 THEN ARRAY[${now}::bigint] ELSE '{}'::bigint[] END,
        ${limit}::int > 0, ${now + windowMs}::bigint
      ${exists}
      ON CONFLICT (key) DO UPDATE SET
        last_allowed = ${counts},
        hits = ${kept} || CASE WHEN ${counts} THEN ARRAY[${now}::bigint] ELSE '{}'::bigint[] END,
        expires_at = GREATEST(w.expires_at, ${now + windowMs}::bigint)
      RETURNING last_allowed AS allowed, cardinality(hits)::int AS n, (SELECT min(h) FROM unnest(hits) AS h)::float8 AS oldest`
  }

  /**
   * Keys whose window is empty, so that keys never hit again do not stay. Its own statement, after the hit's
   * has committed: it skips rows that others hold and waits for none, so it never takes part in a deadlock.
   */
  const sweep = (now: number) =>
    sql`DELETE FROM rate_limit_windows WHERE key IN (
      SELECT key FROM rate_limit_windows WHERE expires_at <= ${now}::bigint LIMIT ${sweepBatch} FOR UPDATE SKIP LOCKED)`

  /** Amounts that left their window. */
  const sweepAmounts = (now: number) =>
    sql`DELETE FROM rate_limit_amounts WHERE ctid IN (
      SELECT ctid FROM rate_limit_amounts WHERE expires_at <= ${now}::bigint LIMIT ${sweepBatch} FOR UPDATE SKIP LOCKED)`

  /** The decision of a counted row; none when no row was counted (an unknown submission). */
  const hitOnce = Effect.fnUntraced(
    function*(key: string, limit: number, windowMs: number, submission?: SubmissionRef) {
      // Time from Effect's Clock (never the server's now()), so tests drive it with TestClock.
      const now = yield* Clock.currentTimeMillis
      const [counted] = yield* count(key, limit, windowMs, now, submission)
      if (++hitsSinceSweep >= sweepEvery) {
        hitsSinceSweep = 0
        // A failed sweep loses nothing: the keys stay until the next one.
        yield* sweep(now).pipe(Effect.catchTag("SqlError", () => Effect.void))
      }
      if (counted === undefined) return Option.none<RateLimitDecision>()
      const decision: RateLimitDecision = {
        allowed: counted.allowed,
        remaining: counted.allowed ? Math.max(0, limit - counted.n) : 0,
        reset_ms: counted.oldest === null ? 0 : Math.max(0, counted.oldest + windowMs - now)
      }
      return Option.some(decision)
    },
    Effect.catchTag("SqlError", sqlFailure)
  )

  const hit = Effect.fn("SqlRateLimiter.hit")(
    (key: string, limit: number, windowMs: number) => hitOnce(key, limit, windowMs),
    Effect.map(Option.getOrElse((): RateLimitDecision => ({ allowed: false, remaining: 0, reset_ms: 0 })))
  )

  const hitForSubmission = Effect.fn("SqlRateLimiter.hitForSubmission")(
    (key: string, limit: number, windowMs: number, submission: SubmissionRef) =>
      isUuid(submission.id) ? hitOnce(key, limit, windowMs, submission) : Effect.succeed(Option.none<RateLimitDecision>())
  )

  const amountUsed = Effect.fn("SqlRateLimiter.amountUsed")(
    function*(key: string, windowMs: number) {
      const now = yield* Clock.currentTimeMillis
      const [row] = yield* sql<{ readonly used: number; readonly oldest: number | null }>`
        SELECT COALESCE(sum(amount), 0)::float8 AS used, min(at)::float8 AS oldest FROM rate_limit_amounts
        WHERE key = ${key} AND at > ${now - windowMs}::bigint`
      const oldest = row?.oldest ?? null
      return { used: row?.used ?? 0, reset_ms: oldest === null ? 0 : Math.max(0, oldest + windowMs - now) }
    },
    Effect.catchTag("SqlError", sqlFailure)
  )

  const addAmount = Effect.fn("SqlRateLimiter.addAmount")(
    function*(key: string, amount: number, windowMs: number) {
      const now = yield* Clock.currentTimeMillis
      yield* sql`INSERT INTO rate_limit_amounts (key, at, amount, expires_at)
        VALUES (${key}, ${now}::bigint, ${amount}::bigint, ${now + windowMs}::bigint)`
      if (++hitsSinceSweep >= sweepEvery) {
        hitsSinceSweep = 0
        yield* sweepAmounts(now).pipe(Effect.catchTag("SqlError", () => Effect.void))
      }
    },
    Effect.catchTag("SqlError", sqlFailure)
  )

  return RateLimiter.of({ hit, hitForSubmission, amountUsed, addAmount })
})

export const SqlRateLimiter = {
  layer: Layer.effect(RateLimiter, makeSqlRateLimiter)
} as const
