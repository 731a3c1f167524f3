/**
 * Migration 35: weighted rate-limit windows (the `upload_bytes` policy: bytes uploaded per client per form and
 * day). One row per counted amount; `expires_at` is when it leaves its window, after which any process may
 * delete it.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE rate_limit_amounts (
    key text NOT NULL,
    at bigint NOT NULL,
    amount bigint NOT NULL CHECK (amount >= 0),
    expires_at bigint NOT NULL
  )`
  yield* sql`CREATE INDEX rate_limit_amounts_key_idx ON rate_limit_amounts (key, at)`
  yield* sql`CREATE INDEX rate_limit_amounts_expires_idx ON rate_limit_amounts (expires_at)`
})
