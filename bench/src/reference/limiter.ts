/**
 * The reference's client limits (CONTRACT §8), one statement per counted request. Each key has one row
 * holding the times of its counted hits inside the window (at most `limit` of them): an upsert reads
 * the row under its row lock (`ON CONFLICT DO UPDATE` sees the latest committed version), drops the
 * times that left the window, and appends this hit only while fewer than `limit` remain. Hits of one
 * key are thus serialised by the row lock, exactly, with no transaction around the statement; a
 * refused hit is not counted. The same statement deletes up to 100 keys whose last hit has left the
 * window (never its own key), so keys that are never hit again do not stay.
 */
import type { Sql } from "postgres"

export interface LimitDecision {
  readonly allowed: boolean
  readonly remaining: number
  /** Seconds until the oldest counted hit leaves the window, rounded up (Retry-After). */
  readonly resetSeconds: number
}

/** The table of the reference's limiter (created with the reference's schema). */
export const limiterTableSql = `
  CREATE TABLE IF NOT EXISTS rate_limit_windows (
    key text PRIMARY KEY,
    hits bigint[] NOT NULL,
    allowed boolean NOT NULL,
    expires_at bigint NOT NULL
  );
  CREATE INDEX IF NOT EXISTS rate_limit_windows_expires_idx ON rate_limit_windows (expires_at);`

interface Counted {
  readonly allowed: boolean
  readonly n: number
  readonly oldest: string | number | null
}

const decide = (row: Counted, limit: number, windowMs: number, now: number): LimitDecision => {
  const oldest = row.oldest === null ? now : Number(row.oldest)
  return {
    allowed: row.allowed,
    remaining: row.allowed ? Math.max(0, limit - row.n) : 0,
    resetSeconds: Math.ceil(Math.max(0, oldest + windowMs - now) / 1000)
  }
}

export const makeLimiter = (sql: Sql) => {
  /**
   * One hit of `key`. With `submission`, the hit is counted only when that submission of that schema
   * exists (save: an unknown id is a 404 the limit does not count), and `undefined` answers "no such
   * submission"; the same statement decides both.
   */
  const hit = async (
    key: string,
    limit: number,
    windowMs: number,
    now: number = Date.now(),
    submission?: { readonly schemaId: string; readonly id: string }
  ): Promise<LimitDecision | undefined> => {
    const since = now - windowMs
    const exists = submission === undefined
      ? sql``
      : sql`WHERE EXISTS (SELECT 1 FROM submissions WHERE id = ${submission.id}::uuid AND schema_id IS NOT DISTINCT FROM ${submission.schemaId})`
    const rows = await sql<Array<Counted>>`
      WITH sweep AS (
        DELETE FROM rate_limit_windows WHERE key IN (
          SELECT key FROM rate_limit_windows WHERE expires_at <= ${now}::bigint AND key <> ${key}
          LIMIT 100 FOR UPDATE SKIP LOCKED)
      )
      INSERT INTO rate_limit_windows AS w (key, hits, allowed, expires_at)
      SELECT ${key}, ARRAY[${now}::bigint], true, ${now + windowMs}::bigint ${exists}
      ON CONFLICT (key) DO UPDATE SET
        allowed = (SELECT count(*) FROM unnest(w.hits) h WHERE h > ${since}::bigint) < ${limit}::int,
        hits = ARRAY(SELECT h FROM unnest(w.hits) h WHERE h > ${since}::bigint) ||
          CASE WHEN (SELECT count(*) FROM unnest(w.hits) h WHERE h > ${since}::bigint) < ${limit}::int
            THEN ARRAY[${now}::bigint] ELSE '{}'::bigint[] END,
        expires_at = GREATEST(w.expires_at, ${now + windowMs}::bigint)
      RETURNING allowed, cardinality(hits) AS n, (SELECT min(h) FROM unnest(hits) h) AS oldest`
    const row = rows[0]
    return row === undefined ? undefined : decide(row, limit, windowMs, now)
  }
  return { hit }
}

export type Limiter = ReturnType<typeof makeLimiter>
