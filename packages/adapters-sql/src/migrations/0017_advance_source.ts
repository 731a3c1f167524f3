/**
 * Migration 17: which advance draft, at which version, an engagement's `advance` last took its values from
 * (`ValueTargets.apply` with a source). An apply computed from an older version of the same draft, landing after
 * a newer one's (two dispatchers, or a late redelivery), then changes nothing. Null until the first such apply.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE engagements ADD COLUMN advance_source_id uuid, ADD COLUMN advance_source_version integer`
})
