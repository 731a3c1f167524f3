/**
 * Migration 23: form logic (CONTRACT §18). A field's and a section's `visible_if` (a JSON Logic condition, null:
 * always active) and a field's `help`, all null on the forms stored before.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE form_fields ADD COLUMN visible_if jsonb, ADD COLUMN help text`
  yield* sql`ALTER TABLE form_sections ADD COLUMN visible_if jsonb`
})
