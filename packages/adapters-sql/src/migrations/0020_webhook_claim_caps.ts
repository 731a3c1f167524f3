/**
 * Migration 20: the indexes of a claim within caps (CONTRACT §13). A claim counts the attempts in flight per
 * endpoint and organisation (leased deliveries: a small partial index, whatever the history), and reads each
 * endpoint's oldest due deliveries up to its room (so a dead endpoint's backlog is never scanned whole).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX webhook_deliveries_leased_idx ON webhook_deliveries (organisation_id, endpoint_id)
    WHERE claimed_until IS NOT NULL`
  yield* sql`CREATE INDEX webhook_deliveries_endpoint_due_idx ON webhook_deliveries (endpoint_id, next_attempt_at, seq)
    WHERE status = 'pending'`
})
