/**
 * Migration 27: languages (CONTRACT §19). A form's `languages` (BCP 47 tags, the default first) and
 * `translations` (its texts in the other languages), as jsonb; null on the forms stored before, read as
 * `["en"]` and none.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE form_schemas ADD COLUMN languages jsonb, ADD COLUMN translations jsonb`
})
