/** The `Engagements` port on PostgreSQL: the portal context by token hash or id, the advance draft, and the atomic section submit. */
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import {
  type AdvanceSection,
  Engagements,
  type NewAdvanceDraft,
  type PortalContext,
  RevisionChanged,
  type SaveSectionCommand,
  SectionLocked,
  SectionNotFound,
  type Submission,
  type SubmitSectionCommand,
  type Unavailable,
  VersionConflict
} from "@forms/domain"
import { advanceDraftKey } from "@forms/domain/internal"
import { hashPortalToken } from "../fixture/formRevision.js"
import { isForeignKeyViolation, sqlFailure } from "../sql/SqlFailure.js"
import { recordEvents, wakeAfterCommit } from "../events/OutboxRecord.js"
import { advanceSectionColumns, AdvanceSectionRow, selectPortalContexts, toPortalContexts } from "./PortalContextRow.js"
import { lockedAt } from "./sectionLock.js"
import { submissionColumns, toSubmissions } from "../publicForms/SubmissionRow.js"
import { isUuid, jsonText } from "../sql/sqlValues.js"
import { atRevision, revisionMoved } from "../sql/revisionCheck.js"
import { decodeRows } from "../sql/decodeRows.js"
import { transientRetries } from "../sql/transientRetries.js"

const selectByHash = selectPortalContexts("en.portal_token_hash = $1")
const selectById = selectPortalContexts("en.id = $1")

const decodeSections = decodeRows(AdvanceSectionRow)

export const makeSqlEngagements = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const wake = yield* wakeAfterCommit
  const columns = sql.literal(submissionColumns)

  const context = (statement: string, parameter: string) =>
    sql.unsafe(statement, [parameter]).pipe(
      Effect.flatMap(toPortalContexts),
      Effect.map((rows): Option.Option<PortalContext> => Option.fromNullishOr(rows[0])),
      Effect.catchTag("SqlError", sqlFailure)
    )

  // Only the SHA-256 of a token is stored; an empty token is no token (never hashed, never found).
  const findByToken = Effect.fn("SqlEngagements.findByToken")((token: string) =>
    token === "" ? Effect.succeed(Option.none<PortalContext>()) : context(selectByHash, hashPortalToken(token))
  )

  const findById = Effect.fn("SqlEngagements.findById")((engagementId: string) => context(selectById, engagementId))

  const selectDraft = (schemaId: string, engagementId: string) =>
    sql`SELECT ${columns} FROM submissions
        WHERE schema_id = ${schemaId} AND idempotency_key = ${advanceDraftKey(engagementId)}`.pipe(
      Effect.flatMap(toSubmissions),
      Effect.map((rows): Option.Option<Submission> => Option.fromNullishOr(rows[0]))
    )

  const findAdvanceDraft = Effect.fn("SqlEngagements.findAdvanceDraft")(
    (schemaId: string, engagementId: string) => selectDraft(schemaId, engagementId),
    Effect.catchTag("SqlError", sqlFailure)
  )

  // Racing first submits: the unique key makes the second INSERT wait for the first and then do nothing;
  // the SELECT after it (a new statement, a new snapshot) sees the winner's committed row.
  const createAdvanceDraft = Effect.fn("SqlEngagements.createAdvanceDraft")(
    function*(init: NewAdvanceDraft) {
      const at = new Date(init.created_at)
      const inserted = yield* sql`
        INSERT INTO submissions (schema_id, idempotency_key, values, event_id, subject_id, created_at, updated_at)
        VALUES (${init.schema_id}, ${advanceDraftKey(init.engagement_id)}, '{}'::jsonb,
                ${init.event_id}, ${init.subject_id}, ${at}::timestamptz, ${at}::timestamptz)
        ON CONFLICT (schema_id, idempotency_key) DO NOTHING
        RETURNING ${columns}`.pipe(Effect.flatMap(toSubmissions))
      const created = inserted[0]
      if (created !== undefined) return created
      const existing = yield* selectDraft(init.schema_id, init.engagement_id)
      if (Option.isNone(existing)) return yield* Effect.die(new Error("The conflicting advance draft vanished"))
      return existing.value
    },
    // The advance form was deleted since the use case read it: the foreign key refuses the draft.
    Effect.catchTag("SqlError", (error): Effect.Effect<never, RevisionChanged | Unavailable> =>
      isForeignKeyViolation(error) ? Effect.fail(new RevisionChanged()) : sqlFailure(error))
  )

  // The section first: a section of another engagement (or none) writes nothing. Racing submits of one
  // engagement lock one section row, then the draft row: never in opposite orders, so no deadlock. The
  // draft is written only at the version the use case validated, and only while the schema is at the revision
  // it validated against; under READ COMMITTED a writer that waited for the row lock re-checks `version` on
  // the committed row, so the later of two racers changes nothing. A miss fails the transaction: nothing written.
  const submitSectionOnce = (command: SubmitSectionCommand) =>
    sql.withTransaction(Effect.gen(function*() {
      const at = new Date(command.submitted_at)
      // The lock is checked by this statement itself (CONTRACT §21): it takes the section's row lock, so an
      // organiser's change of the lock (which updates the same row) is ordered with it. A lock committed first
      // makes this UPDATE, which waited for it, re-check the committed row and match nothing; a lock arriving
      // later waits for this transaction, so its answer follows this write.
      const sectionRows = yield* sql`
        UPDATE advance_sections SET status = 'submitted', submitted_at = ${at}::timestamptz
        WHERE id = ${command.section_id} AND engagement_id = ${command.engagement_id}
          AND NOT ${lockedAt(sql, "advance_sections", at)}
        RETURNING ${sql.literal(advanceSectionColumns)}`
      const section: AdvanceSection | undefined = (yield* decodeSections(sectionRows))[0]
      if (section === undefined) {
        const exists = yield* sql`SELECT 1 FROM advance_sections
          WHERE id = ${command.section_id} AND engagement_id = ${command.engagement_id}`
        return yield* (exists.length > 0 ? new SectionLocked({}) : new SectionNotFound({}))
      }
      if (!isUuid(command.draft_id)) return yield* new VersionConflict({})
      // A section submit is not a save: auto_save_count is left alone. The id alone picks the row (the other
      // columns compared with IS NOT DISTINCT FROM, so a generic plan stays on the primary key: SqlSubmissions).
      const draftRows = yield* sql`
        UPDATE submissions SET values = values || ${jsonText(command.values)}::jsonb, version = version + 1,
          updated_at = ${at}::timestamptz
        WHERE id = ${command.draft_id}::uuid AND schema_id IS NOT DISTINCT FROM ${command.schema_id}
          AND version = ${command.expected_version} AND ${atRevision(sql, command.schema_id, command.revision)}
        RETURNING ${columns}`.pipe(Effect.flatMap(toSubmissions))
      const submission = draftRows[0]
      if (submission === undefined) {
        const moved = command.revision !== undefined && (yield* revisionMoved(sql, command.schema_id, command.revision))
        return yield* (moved ? new RevisionChanged() : new VersionConflict({}))
      }
      yield* recordEvents(sql, [command.event], at)
      return { submission, section }
    }))

  const submitSection = Effect.fn("SqlEngagements.submitSection")(
    (command: SubmitSectionCommand) => submitSectionOnce(command),
    Effect.retry(transientRetries),
    Effect.catchTag("SqlError", sqlFailure),
    Effect.tap(() => wake)
  )

  // The section's row is locked FOR SHARE while unlocked at the save's instant: a lock's change (FOR UPDATE of
  // that row) waits for this save, or this save waits for it and re-checks the committed row (then refuses).
  const saveSectionOnce = (command: SaveSectionCommand) =>
    sql.withTransaction(Effect.gen(function*() {
      const at = new Date(command.saved_at)
      const open = yield* sql`SELECT 1 FROM advance_sections
        WHERE id = ${command.section_id} AND engagement_id = ${command.engagement_id}
          AND NOT ${lockedAt(sql, "advance_sections", at)} FOR SHARE`
      if (open.length === 0) {
        const exists = yield* sql`SELECT 1 FROM advance_sections
          WHERE id = ${command.section_id} AND engagement_id = ${command.engagement_id}`
        return yield* (exists.length > 0 ? new SectionLocked({}) : new SectionNotFound({}))
      }
      if (!isUuid(command.draft_id)) return yield* new VersionConflict({})
      const rows = yield* sql`
        UPDATE submissions SET values = values || ${jsonText(command.values)}::jsonb, version = version + 1,
          updated_at = ${at}::timestamptz, auto_save_count = auto_save_count + 1
        WHERE id = ${command.draft_id}::uuid AND schema_id IS NOT DISTINCT FROM ${command.schema_id}
          AND ${atRevision(sql, command.schema_id, command.revision)}
        RETURNING ${columns}`.pipe(Effect.flatMap(toSubmissions))
      const saved = rows[0]
      if (saved === undefined) {
        const moved = command.revision !== undefined && (yield* revisionMoved(sql, command.schema_id, command.revision))
        return yield* (moved ? new RevisionChanged() : new VersionConflict({}))
      }
      return saved
    }))

  const saveSection = Effect.fn("SqlEngagements.saveSection")(
    (command: SaveSectionCommand) => saveSectionOnce(command),
    Effect.retry(transientRetries),
    Effect.catchTag("SqlError", sqlFailure)
  )

  return Engagements.of({ findByToken, findById, findAdvanceDraft, createAdvanceDraft, submitSection, saveSection })
})

export const SqlEngagements = {
  layer: Layer.effect(Engagements, makeSqlEngagements)
} as const
