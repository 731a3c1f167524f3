/**
 * Migration 15: the rate limiter's hits as one row per key (issue 23), so that a hit is one statement with no
 * transaction around it, instead of four round trips under an advisory lock.
 *
 * `hits` holds the epoch-ms times of the key's counted hits (at most the limit of them inside the window;
 * older ones are dropped at the key's next hit), `last_allowed` whether the latest hit was counted (what the
 * upsert that made it returns). `expires_at` is no earlier than the moment the last counted hit leaves the
 * window: past it the row counts nothing and any process may delete it. The hits of `rate_limit_hits` are carried
 * over, so a window in progress keeps its count across the upgrade.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE rate_limit_windows (
    key text PRIMARY KEY,
    hits bigint[] NOT NULL,
    last_allowed boolean NOT NULL,
    expires_at bigint NOT NULL
  )`
  yield* sql`CREATE INDEX rate_limit_windows_expires_idx ON rate_limit_windows (expires_at)`
  yield* sql`INSERT INTO rate_limit_windows (key, hits, last_allowed, expires_at)
    SELECT key, array_agg(at ORDER BY at), true, max(expires_at) FROM rate_limit_hits GROUP BY key`
  yield* sql`DROP TABLE rate_limit_hits`
})
