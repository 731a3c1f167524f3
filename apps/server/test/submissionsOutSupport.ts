/** Helpers of the "Submissions out" route tests: an export form and its submissions stored with SQL, and a table scan. */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/** A form of `org-t` with text fields in two sections and one without (columns: note, a_first, b_second, z_last). */
export const exportForm = (id: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`INSERT INTO form_schemas (id, organisation_id, event_id, name, type, status, revision)
      VALUES (${id}, 'org-t', 'ev-t', 'Export', 'registration', 'archived', 1)`
    yield* sql`INSERT INTO form_sections (id, schema_id, name, position) VALUES
      (${`${id}-s2`}, ${id}, 'Two', 2), (${`${id}-s1`}, ${id}, 'One', 1)`
    yield* sql`INSERT INTO form_fields (id, schema_id, section_id, slug, label, type, position) VALUES
      (${`${id}-z`}, ${id}, ${`${id}-s2`}, 'z_last', 'Z', 'text', 0),
      (${`${id}-b`}, ${id}, ${`${id}-s1`}, 'b_second', 'B', 'text', 2),
      (${`${id}-a`}, ${id}, ${`${id}-s1`}, 'a_first', 'A', 'text', 1),
      (${`${id}-n`}, ${id}, NULL, 'note', 'Note', 'textarea', 5)`
  }).pipe(Effect.orDie)

/** Stores a submission of `formId` as a writer would have; returns its id. */
export const storeSubmission = (formId: string, key: string, values: Record<string, unknown>, at: number, status = "submitted") =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const when = new Date(at)
    const [row] = yield* sql<{ readonly id: string }>`
      INSERT INTO submissions (schema_id, idempotency_key, status, values, created_at, updated_at, submitted_at)
      VALUES (${formId}, ${key}, ${status}, ${JSON.stringify(values)}::jsonb, ${when}::timestamptz, ${when}::timestamptz,
              ${status === "submitted" ? when : null}::timestamptz)
      RETURNING id::text AS id`
    return row?.id ?? ""
  }).pipe(Effect.orDie)

/** `count` submissions of `formId` with a value of `bytes` characters each, in one statement. */
export const storeMany = (formId: string, count: number, bytes: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`INSERT INTO submissions (schema_id, idempotency_key, status, values, created_at, updated_at, submitted_at)
      SELECT ${formId}, 'bulk-' || n, 'submitted', jsonb_build_object('note', repeat('x', ${bytes}), 'a_first', n::text),
        timestamptz '2027-01-01' + n * interval '1 millisecond', timestamptz '2027-01-01' + n * interval '1 millisecond',
        timestamptz '2027-01-01' + n * interval '1 millisecond'
      FROM generate_series(1, ${count}) AS n`
  }).pipe(Effect.orDie)

/** Every table of the current schema whose rows, as text, contain `marker` (case-insensitive). */
export const tablesContaining = (marker: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const tables = yield* sql<{ readonly name: string }>`
      SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`
    const found: Array<string> = []
    for (const { name } of tables) {
      const rows = yield* sql.unsafe<{ readonly n: number }>(
        `SELECT count(*)::int AS n FROM "${name.replaceAll("\"", "\"\"")}" t WHERE t::text ILIKE $1`,
        [`%${marker}%`]
      )
      if ((rows[0]?.n ?? 0) > 0) found.push(name)
    }
    return { tables: tables.map((t) => t.name), found }
  }).pipe(Effect.orDie)
