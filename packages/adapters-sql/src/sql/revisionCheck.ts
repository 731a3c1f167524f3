/** A write validated against a form's revision (CONTRACT §12, "a change applies at once"): the check in its statement. */
import { Effect } from "effect"
import type { SqlClient } from "effect/sql"

/**
 * The form is still at the revision the write validated against: checked in the write's own statement
 * (its snapshot sees every change committed, and so answered, before it started). No revision: no check.
 */
export const atRevision = (sql: SqlClient.SqlClient, schemaId: string, revision: number | undefined) =>
  sql`(${revision === undefined}::boolean OR EXISTS (
    SELECT 1 FROM form_schemas fs WHERE fs.id = ${schemaId} AND fs.revision = ${revision ?? 0}::int))`

/** After a write that matched nothing: whether the form has left `revision` (rather than the row having moved). */
export const revisionMoved = (sql: SqlClient.SqlClient, schemaId: string, revision: number) =>
  sql<{ readonly one: number }>`SELECT 1 AS one FROM form_schemas WHERE id = ${schemaId} AND revision = ${revision}::int`
    .pipe(Effect.map((rows) => rows.length === 0))
