/**
 * Migration 30: a submission's language (CONTRACT §19), the one chosen on its create and replaced by later explicit
 * choices. The submissions stored before get their form's default language (the first of its `languages`, `en`
 * for a form without them); the default `en` stays for rows written without one (the portal's advance drafts).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE submissions ADD COLUMN language text NOT NULL DEFAULT 'en'`
  yield* sql`
    UPDATE submissions s SET language = f.languages->>0
    FROM form_schemas f
    WHERE f.id = s.schema_id AND jsonb_typeof(f.languages) = 'array' AND jsonb_typeof(f.languages->0) = 'string'
      AND f.languages->>0 <> 'en'`
})
