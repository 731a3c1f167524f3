/**
 * Migration 23: form logic (CONTRACT §18). A field's and a section's `visible_if` (a JSON Logic condition, null:
 * always active) and a field's `help`, all null on the forms stored before. Fields of type `hidden` gain their
 * rule here (never required, never unique): one stored before that the rule refuses is left as it is and named in
 * the log, by form id and path, for its organiser to change.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE form_fields ADD COLUMN visible_if jsonb, ADD COLUMN help text`
  yield* sql`ALTER TABLE form_sections ADD COLUMN visible_if jsonb`
  // A field's path is its index in the form's order of fields (position, then slug), as a definition lists them.
  const refused = yield* sql<{ readonly schema_id: string; readonly at: number; readonly member: string }>`
    SELECT schema_id, at, member FROM (
      SELECT schema_id, type, is_required, is_unique,
        (row_number() OVER (PARTITION BY schema_id ORDER BY position, slug COLLATE "C") - 1)::int AS at
      FROM form_fields) f
    CROSS JOIN LATERAL (VALUES ('is_required', f.is_required), ('is_unique', f.is_unique)) AS m (member, set)
    WHERE f.type = 'hidden' AND m.set ORDER BY schema_id, at, member`
  for (const row of refused) {
    yield* Effect.logWarning("a stored hidden field is required or unique, which its type no longer allows: left as it is")
      .pipe(Effect.annotateLogs({ form_schema_id: row.schema_id, path: `fields.${row.at}.${row.member}` }))
  }
})
