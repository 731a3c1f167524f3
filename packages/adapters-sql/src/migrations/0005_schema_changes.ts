/**
 * Migration 5: every statement that changes a form schema's rows (its sections and fields, or the events
 * whose names a form shows) NOTIFYs `forms_schemas` at commit, with the schema of the table it changed
 * (`TG_TABLE_SCHEMA`: the writer's `current_schema()` may be another one when its search path starts
 * with a schema that holds no such table).
 * `FormSchemaCache` listens and forgets what it kept (see FormSchemaCache.ts).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

const tables = ["form_schemas", "form_sections", "form_fields", "events"] as const

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE FUNCTION forms_notify_schema_change() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('forms_schemas', TG_TABLE_SCHEMA);
      RETURN NULL;
    END
    $$`
  for (const table of tables) {
    yield* sql.unsafe(`CREATE TRIGGER ${table}_notify_change
      AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${table}
      FOR EACH STATEMENT EXECUTE FUNCTION forms_notify_schema_change()`)
  }
})
