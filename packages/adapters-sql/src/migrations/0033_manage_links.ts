/**
 * Migration 33: volunteers manage their own shifts (CONTRACT §22). A submitted submission of a form with a
 * `time_slots` field carries a manage token, kept only as its SHA-256 (hex; one per submission, a new link
 * replaces it, erasure deletes it with the row). Volunteer forms gain `cancel_until_hours` (null: 0) and
 * `display_fields` (null: none), members of their definition.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE submissions ADD COLUMN manage_token_hash text`
  yield* sql`CREATE UNIQUE INDEX submissions_manage_token_idx ON submissions (manage_token_hash)
    WHERE manage_token_hash IS NOT NULL`
  yield* sql`ALTER TABLE form_schemas ADD COLUMN cancel_until_hours integer
    CHECK (cancel_until_hours BETWEEN 0 AND 720), ADD COLUMN display_fields jsonb`
})
