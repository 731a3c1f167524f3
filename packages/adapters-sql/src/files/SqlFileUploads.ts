/**
 * The `FileUploads` port on PostgreSQL: one statement per method. Inserting a pending row and storing it both
 * lock the submission's row (`FOR SHARE`) while it is a draft, so a submit or an erasure either comes after
 * them or they find it no longer a draft: an upload never attaches to a finished or erased submission.
 */
import { Clock, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { AlreadySubmitted, FileUploads, type OrphanCutoffs, type StoredContent, SubmissionNotFound, UploadedFile } from "@forms/domain"
import { sqlFailure } from "../sql/SqlFailure.js"
import { epochMs, isUuid } from "../sql/sqlValues.js"

const columns = `u.id::text AS id, u.submission_id::text AS submission_id, u.field_slug AS field, u.name,
  u.size::float8 AS size, u.content_type, u.sha256, u.state, ${epochMs("u.created_at")} AS created_at`

const decode = Schema.decodeUnknownSync(Schema.Array(UploadedFile))

export const makeSqlFileUploads = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const cols = sql.literal(columns)

  const insertPending = Effect.fn("SqlFileUploads.insertPending")(function*(upload: {
    readonly schema_id: string
    readonly submission_id: string
    readonly field: string
    readonly name: string
  }) {
    if (!isUuid(upload.submission_id)) return yield* new SubmissionNotFound({})
    const at = new Date(yield* Clock.currentTimeMillis)
    const inserted = yield* sql<{ readonly id: string }>`
      INSERT INTO uploads (submission_id, field_slug, name, created_at)
      SELECT s.id, ${upload.field}, ${upload.name}, ${at}::timestamptz FROM submissions s
      WHERE s.id = ${upload.submission_id}::uuid AND s.schema_id = ${upload.schema_id} AND s.status = 'draft'
      FOR SHARE
      RETURNING id::text AS id`.pipe(Effect.catchTag("SqlError", sqlFailure))
    const row = inserted[0]
    if (row !== undefined) return row.id
    const found = yield* sql`SELECT 1 FROM submissions WHERE id = ${upload.submission_id}::uuid
      AND schema_id = ${upload.schema_id}`.pipe(Effect.catchTag("SqlError", sqlFailure))
    return yield* (found.length === 0 ? new SubmissionNotFound({}) : new AlreadySubmitted({}))
  })

  const usage = Effect.fn("SqlFileUploads.usage")(function*(submissionId: string, field: string) {
    if (!isUuid(submissionId)) return { field_files: 0, submission_bytes: 0 }
    const [row] = yield* sql<{ readonly field_files: number; readonly submission_bytes: number }>`
      SELECT count(*) FILTER (WHERE field_slug = ${field})::int AS field_files,
        COALESCE(sum(size) FILTER (WHERE state = 'stored'), 0)::float8 AS submission_bytes
      FROM uploads WHERE submission_id = ${submissionId}::uuid`.pipe(Effect.catchTag("SqlError", sqlFailure))
    return { field_files: row?.field_files ?? 0, submission_bytes: row?.submission_bytes ?? 0 }
  })

  const markStored = Effect.fn("SqlFileUploads.markStored")(function*(id: string, content: StoredContent) {
    const rows = yield* sql`
      WITH draft AS (
        SELECT s.id FROM submissions s JOIN uploads p ON p.submission_id = s.id
        WHERE p.id = ${id}::uuid AND p.state = 'pending' AND s.status = 'draft'
        FOR SHARE OF s
      )
      UPDATE uploads u SET state = 'stored', size = ${content.size}, content_type = ${content.content_type},
        sha256 = ${content.sha256}
      FROM draft WHERE u.id = ${id}::uuid AND u.submission_id = draft.id AND u.state = 'pending'
      RETURNING ${cols}`.pipe(Effect.catchTag("SqlError", sqlFailure))
    const [stored] = decode(rows)
    if (stored !== undefined) return stored
    // Lost to a submit or an erasure: the row goes (its content is the caller's to remove).
    yield* sql`DELETE FROM uploads WHERE id = ${id}::uuid AND state = 'pending'`.pipe(Effect.catchTag("SqlError", sqlFailure))
    return yield* new AlreadySubmitted({})
  })

  const remove = Effect.fn("SqlFileUploads.remove")((id: string) =>
    isUuid(id)
      ? sql`DELETE FROM uploads WHERE id = ${id}::uuid`.pipe(Effect.asVoid, Effect.catchTag("SqlError", sqlFailure))
      : Effect.void
  )

  const removeFromDraft = Effect.fn("SqlFileUploads.removeFromDraft")(
    function*(schemaId: string, submissionId: string, fileId: string) {
      if (!isUuid(submissionId) || !isUuid(fileId)) return false
      const [row] = yield* sql<{ readonly draft: boolean; readonly removed: number }>`
        WITH s AS (SELECT id, status FROM submissions WHERE id = ${submissionId}::uuid AND schema_id = ${schemaId} FOR SHARE),
        gone AS (
          DELETE FROM uploads u USING s WHERE u.id = ${fileId}::uuid AND u.submission_id = s.id
            AND s.status = 'draft' AND u.state = 'stored'
          RETURNING u.id
        )
        SELECT COALESCE((SELECT status = 'draft' FROM s), true) AS draft, (SELECT count(*) FROM gone)::int AS removed`
        .pipe(Effect.catchTag("SqlError", sqlFailure))
      if (row !== undefined && !row.draft) return yield* new AlreadySubmitted({})
      return (row?.removed ?? 0) > 0
    }
  )

  const storedOf = Effect.fn("SqlFileUploads.storedOf")(function*(submissionId: string) {
    if (!isUuid(submissionId)) return []
    const rows = yield* sql`SELECT ${cols} FROM uploads u
      WHERE u.submission_id = ${submissionId}::uuid AND u.state = 'stored' ORDER BY u.created_at, u.id`
      .pipe(Effect.catchTag("SqlError", sqlFailure))
    return decode(rows)
  })

  const storedOfMany = Effect.fn("SqlFileUploads.storedOfMany")(function*(submissionIds: ReadonlyArray<string>) {
    const ids = submissionIds.filter(isUuid)
    if (ids.length === 0) return []
    const rows = yield* sql`SELECT ${cols} FROM uploads u
      WHERE u.submission_id = ANY(${ids}::uuid[]) AND u.state = 'stored' ORDER BY u.created_at, u.id`
      .pipe(Effect.catchTag("SqlError", sqlFailure))
    return decode(rows)
  })

  // Detached rows keep no submission, as erased ones do: the orphan sweep deletes their content, then them.
  const detachUnreferenced = Effect.fn("SqlFileUploads.detachUnreferenced")(
    function*(submissionId: string, keep: ReadonlyArray<string>) {
      if (!isUuid(submissionId)) return []
      const kept = keep.filter(isUuid)
      const rows = yield* sql<{ readonly id: string }>`UPDATE uploads u SET submission_id = NULL
        FROM submissions s
        WHERE u.submission_id = ${submissionId}::uuid AND s.id = u.submission_id AND s.status = 'submitted'
          AND u.state = 'stored' AND NOT (u.id = ANY(${kept}::uuid[]))
        RETURNING u.id::text AS id`.pipe(Effect.catchTag("SqlError", sqlFailure))
      return rows.map((row) => row.id)
    }
  )

  const findForOrganisation = Effect.fn("SqlFileUploads.findForOrganisation")(function*(organisationId: string, fileId: string) {
    if (!isUuid(fileId)) return Option.none()
    const rows = yield* sql`SELECT ${cols} FROM uploads u
      JOIN submissions s ON s.id = u.submission_id JOIN form_schemas f ON f.id = s.schema_id
      WHERE u.id = ${fileId}::uuid AND u.state = 'stored' AND f.organisation_id = ${organisationId}`
      .pipe(Effect.catchTag("SqlError", sqlFailure))
    return Option.fromNullishOr(decode(rows)[0])
  })

  // Erasure keeps the rows with no submission (migration 0026: ON DELETE SET NULL) until their content is gone.
  // A value names an upload as a string or in an array of strings (jsonb @> finds a string in either).
  const orphans = Effect.fn("SqlFileUploads.orphans")(function*(cutoffs: OrphanCutoffs, limit: number) {
    const rows = yield* sql<{ readonly id: string }>`SELECT u.id::text AS id FROM uploads u
      LEFT JOIN submissions s ON s.id = u.submission_id
      WHERE u.submission_id IS NULL
        OR (u.state = 'pending' AND u.created_at < ${new Date(cutoffs.pendingBefore)}::timestamptz)
        OR (u.state = 'stored' AND u.created_at < ${new Date(cutoffs.unreferencedBefore)}::timestamptz
          AND NOT COALESCE(s.values -> u.field_slug @> to_jsonb(u.id::text), false))
      ORDER BY u.created_at, u.id LIMIT ${limit}`.pipe(Effect.catchTag("SqlError", sqlFailure))
    return rows.map((row) => row.id)
  })

  return FileUploads.of({ insertPending, usage, markStored, remove, removeFromDraft, findForOrganisation, orphans, storedOf, storedOfMany, detachUnreferenced })
})

export const SqlFileUploads = { layer: Layer.effect(FileUploads, makeSqlFileUploads) } as const
