/**
 * Migration 10: forms authored through the organiser API (CONTRACT §12). `revision` becomes the integer
 * of §12 (1, then +1 per change); `definition_hash` is the hash of the definition a fixture last wrote
 * (null after an API edit), so a fixture load knows whether it changes anything. Section and field ids
 * become the form's own names for its parts: unique per form, no longer across all forms.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE form_schemas ADD COLUMN definition_hash text`
  yield* sql`UPDATE form_schemas SET definition_hash = revision`
  yield* sql`ALTER TABLE form_schemas ALTER COLUMN revision TYPE integer USING 1`
  yield* sql`ALTER TABLE form_schemas ALTER COLUMN revision SET DEFAULT 1`
  yield* sql`ALTER TABLE form_schemas ADD CONSTRAINT form_schemas_revision_check CHECK (revision >= 1)`
  yield* sql`ALTER TABLE form_schemas
    ADD COLUMN created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
    ADD COLUMN updated_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now())`
  yield* sql`CREATE INDEX form_schemas_page_idx ON form_schemas (organisation_id, created_at DESC, (id COLLATE "C") DESC)`

  // Ids scoped to their form: (schema_id, id) keys, and a field names its section within its own form.
  yield* sql`ALTER TABLE form_fields DROP CONSTRAINT form_fields_section_id_fkey`
  yield* sql`ALTER TABLE form_sections DROP CONSTRAINT form_sections_pkey`
  yield* sql`ALTER TABLE form_sections ADD CONSTRAINT form_sections_pkey PRIMARY KEY (schema_id, id)`
  yield* sql`ALTER TABLE form_fields DROP CONSTRAINT form_fields_pkey`
  yield* sql`ALTER TABLE form_fields ADD CONSTRAINT form_fields_pkey PRIMARY KEY (schema_id, id)`
  // SET NULL of the section column only (PostgreSQL 15): the field stays in its form.
  yield* sql`ALTER TABLE form_fields ADD CONSTRAINT form_fields_section_fkey
    FOREIGN KEY (schema_id, section_id) REFERENCES form_sections (schema_id, id)
    ON DELETE SET NULL (section_id) DEFERRABLE INITIALLY DEFERRED`
})
