/**
 * Migration 8: `outbox.claimed_until`, the lease end of an attempt that was claimed and has no outcome yet
 * (null when none is outstanding). A claim counts its attempt and sets it; an outcome clears it; a claim
 * that finds it set on a due event knows the attempt before was interrupted (a crash, a cut-off delivery).
 * Rows claimed before this migration carry null: their attempt in flight is simply not counted.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE outbox ADD COLUMN claimed_until timestamptz`
})
