/**
 * The `SubmissionRecords` port on PostgreSQL (CONTRACT §12): a form's submissions by keyset, exported through
 * a database cursor (keyset pages of 1,000 where the client has a single connection, as PGlite has), and
 * erasure in one transaction (SqlErasure.ts).
 */
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Option, Stream } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { type AdminSubmission, type CreatedKey, type PageRequest, type SubmissionFilter, SubmissionRecords } from "@forms/domain"
import { fileColumns, slotColumns, timeSlotsFieldType } from "@forms/domain/internal"
import { sqlFailure } from "../sql/SqlFailure.js"
import { adminSubmissionColumns, adminContactColumns, toAdminContact, toAdminSubmission } from "./adminSubmissionRows.js"
import { isUuid } from "../sql/sqlValues.js"
import { makeSqlErasure } from "./SqlErasure.js"
import { newestFirst, toPage } from "../sql/paging.js"

/** Rows per FETCH from the cursor, and per keyset page on a single connection. */
export const exportBatchRows = 500
export const exportPageRows = 1000

export const makeSqlSubmissionRecords = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const pg = yield* Effect.serviceOption(PgClient.PgClient)
  const erasure = yield* makeSqlErasure
  const columns = sql.literal(adminSubmissionColumns)
  // One connection (PGlite): an export must not hold it, so it reads keyset pages between other work.
  // The options the client was made with (PgClient keeps them all as its `config`).
  // Without a PgClient (a plain SqlClient), a cursor.
  const poolSize = Option.isSome(pg) ? (pg.value.config as { readonly maxConnections?: number | undefined }).maxConnections : undefined
  const singleConnection = poolSize !== undefined && poolSize <= 1

  const where = (organisationId: string, formId: string, filter: SubmissionFilter, after: CreatedKey | undefined) =>
    sql`s.schema_id = ${formId} AND f.organisation_id = ${organisationId}
      AND (${filter.status ?? null}::text IS NULL OR s.status = ${filter.status ?? null}::text)
      AND (${filter.since === undefined ? null : new Date(filter.since)}::timestamptz IS NULL
        OR s.updated_at >= ${filter.since === undefined ? null : new Date(filter.since)}::timestamptz)
      AND (${after === undefined} OR s.created_at > ${after === undefined ? null : new Date(after.created_at)}::timestamptz
        OR (s.created_at = ${after === undefined ? null : new Date(after.created_at)}::timestamptz
          AND s.id::text COLLATE "C" > ${after?.id ?? null}::text COLLATE "C"))`

  const selectPage = (organisationId: string, formId: string, filter: SubmissionFilter, after: CreatedKey | undefined, limit: number) =>
    sql`SELECT ${columns} FROM submissions s JOIN form_schemas f ON f.id = s.schema_id
      WHERE ${where(organisationId, formId, filter, after)}
      ORDER BY s.created_at, s.id::text COLLATE "C" LIMIT ${limit}`.pipe(Effect.map((rows) => rows.map(toAdminSubmission)))

  const formColumns = Effect.fn("SqlSubmissionRecords.formColumns")(
    function*(organisationId: string, formId: string) {
      const forms = yield* sql`SELECT 1 FROM form_schemas WHERE id = ${formId} AND organisation_id = ${organisationId}`
      if (forms.length === 0) return Option.none()
      // §12: fields without a section first, then sections by position then id; within each, by position then slug.
      const rows = yield* sql<{ readonly slug: string; readonly type: string }>`
        SELECT fl.slug, fl.type FROM form_fields fl LEFT JOIN form_sections sc ON sc.schema_id = fl.schema_id AND sc.id = fl.section_id
        WHERE fl.schema_id = ${formId}
        ORDER BY (fl.section_id IS NOT NULL), sc.position, sc.id COLLATE "C", fl.position, fl.slug COLLATE "C"`
      const slugs = rows.map((r) => r.slug)
      // Time-slot cells name their slots (§12): the organisation's slots, read once per export.
      const slots = rows.some((r) => r.type === timeSlotsFieldType)
        ? yield* sql<{ readonly id: string; readonly name: string; readonly date: string; readonly start_time: string; readonly end_time: string }>`
            SELECT t.id, t.name, to_char(t.date, 'YYYY-MM-DD') AS date, to_char(t.start_time, 'HH24:MI') AS start_time,
              to_char(t.end_time, 'HH24:MI') AS end_time
            FROM time_slots t JOIN events e ON e.id = t.event_id WHERE e.organisation_id = ${organisationId}`
        : []
      const timeSlots = slotColumns(slugs, rows, slots)
      const fileSlugs = fileColumns(slugs, rows)
      return Option.some({
        slugs,
        ...(timeSlots === undefined ? {} : { time_slots: timeSlots }),
        ...(fileSlugs === undefined ? {} : { file_slugs: fileSlugs })
      })
    },
    Effect.catchTag("SqlError", sqlFailure)
  )

  const list = Effect.fn("SqlSubmissionRecords.list")(
    (organisationId: string, formId: string, filter: SubmissionFilter, page: PageRequest<CreatedKey>) =>
      selectPage(organisationId, formId, filter, page.after, page.limit + 1).pipe(
        Effect.map((rows) => toPage(rows, page.limit))
      ),
    Effect.catchTag("SqlError", sqlFailure)
  )

  /** Keyset pages, each its own statement: the connection is free between two pages. */
  const pagedRows = (organisationId: string, formId: string, filter: SubmissionFilter) =>
    Stream.paginate(undefined as CreatedKey | undefined, (after) =>
      Effect.map(selectPage(organisationId, formId, filter, after, exportPageRows), (rows) => {
        const last = rows.at(-1)
        const next = rows.length === exportPageRows && last !== undefined
          ? Option.some<CreatedKey | undefined>({ created_at: last.created_at, id: last.id })
          : Option.none<CreatedKey | undefined>()
        return [rows, next] as const
      }))

  /**
   * A server-side cursor in a read-only transaction on a reserved connection, FETCHed in batches. When the
   * stream ends or is interrupted (a client gone mid-export), the transaction is rolled back (closing the
   * cursor) and the connection goes back to the pool.
   */
  const cursorRows = (organisationId: string, formId: string, filter: SubmissionFilter) =>
    Stream.unwrap(Effect.gen(function*() {
      const connection = yield* sql.reserve
      yield* Effect.acquireRelease(
        connection.executeUnprepared("BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY", [], undefined),
        () => Effect.ignore(connection.executeUnprepared("ROLLBACK", [], undefined))
      )
      const [text, params] = sql`DECLARE forms_export NO SCROLL CURSOR FOR
        SELECT ${columns} FROM submissions s JOIN form_schemas f ON f.id = s.schema_id
        WHERE ${where(organisationId, formId, filter, undefined)}
        ORDER BY s.created_at, s.id::text COLLATE "C"`.compile()
      yield* connection.execute(text, params, undefined)
      const fetch = connection.executeUnprepared(`FETCH ${exportBatchRows} FROM forms_export`, [], undefined)
      return Stream.paginate(true, (more: boolean) =>
        more
          ? Effect.map(fetch, (rows): readonly [ReadonlyArray<AdminSubmission>, Option.Option<boolean>] => [
            rows.map(toAdminSubmission),
            rows.length === exportBatchRows ? Option.some(true) : Option.none()
          ])
          : Effect.succeed([[], Option.none()] as const))
    }))

  // A stream, not an effect: no span of its own (its statements have theirs).
  const exportRows = (organisationId: string, formId: string, filter: SubmissionFilter) =>
    (singleConnection ? pagedRows(organisationId, formId, filter) : cursorRows(organisationId, formId, filter)).pipe(
      Stream.catchTag("SqlError", (error: SqlError) => Stream.fromEffect(sqlFailure(error)))
    )

  const find = Effect.fn("SqlSubmissionRecords.find")(
    function*(organisationId: string, id: string) {
      if (!isUuid(id)) return Option.none<AdminSubmission>()
      const rows = yield* sql`SELECT ${columns} FROM submissions s JOIN form_schemas f ON f.id = s.schema_id
        WHERE s.id = ${id}::uuid AND f.organisation_id = ${organisationId}`
      return Option.fromUndefinedOr(rows.map(toAdminSubmission)[0])
    },
    Effect.catchTag("SqlError", sqlFailure)
  )

  const contacts = Effect.fn("SqlSubmissionRecords.contacts")(
    (organisationId: string, key: string | undefined, page: PageRequest<CreatedKey>) =>
      sql`SELECT ${sql.literal(adminContactColumns)} FROM contacts c
        WHERE c.organisation_id = ${organisationId} AND (${key ?? null}::text IS NULL OR c.key = ${key ?? null}::text)
          AND ${newestFirst(sql, { created: "c.created_at", id: "c.id::text" }, page)}`.pipe(
        Effect.map((rows) => toPage(rows.map(toAdminContact), page.limit))
      ),
    Effect.catchTag("SqlError", sqlFailure)
  )

  return SubmissionRecords.of({
    formColumns,
    list,
    exportRows,
    find,
    erase: erasure.erase,
    contacts,
    eraseContact: erasure.eraseContact
  })
})

export const SqlSubmissionRecords = {
  layer: Layer.effect(SubmissionRecords, makeSqlSubmissionRecords)
} as const
