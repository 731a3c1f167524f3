/** The "Submissions out" use cases over the SubmissionRecords and OutboxAdmin ports, and the retention sweep. */
import { Clock, Effect, Layer, Stream } from "effect"
import { storedAnswerFiles } from "../files/answerFiles.js"
import { FileStorage } from "../files/FileStorage.js"
import { FileUploads } from "../files/FileUploads.js"
import { removeOrphanedUploads } from "../files/removeOrphanedUploads.js"
import { FormNotFound } from "../forms/errors.js"
import { SubmissionNotFound } from "../publicForms/errors.js"
import type { Actor } from "../shared/Actor.js"
import { OutboxAdmin } from "./OutboxAdmin.js"
import { Retention } from "./Retention.js"
import { SubmissionRecords } from "./SubmissionRecords.js"
import { type RetentionPolicy, SubmissionsOut } from "./SubmissionsOut.js"
import type { AdminSubmission, ExportColumns, SubmissionFilter } from "./SubmissionsOutModel.js"

const dayMs = 86_400_000

export const makeSubmissionsOut = Effect.gen(function*() {
  const records = yield* SubmissionRecords
  const outbox = yield* OutboxAdmin
  const uploads = yield* FileUploads
  const storage = yield* FileStorage
  /**
   * After an erasure has committed (CONTRACT §23), the contents of its uploads go, then their rows; a delete that
   * fails stays listed for the next run (an erasure, a submit, the retention sweep). Never fails the erasure.
   */
  const removeErasedFiles = removeOrphanedUploads.pipe(
    Effect.provideService(FileUploads, uploads),
    Effect.provideService(FileStorage, storage),
    Effect.ignore
  )

  /** Submissions of a form with a file field get their `files` (one read for the whole page or batch). */
  const withFiles = (columns: ExportColumns, submissions: ReadonlyArray<AdminSubmission>) =>
    Effect.gen(function*() {
      if (columns.file_slugs === undefined || submissions.length === 0) return submissions
      const stored = yield* uploads.storedOfMany(submissions.map((s) => s.id))
      return submissions.map((s) => ({ ...s, files: storedAnswerFiles(s, stored.filter((file) => file.submission_id === s.id)) }))
    })

  const requireForm = (actor: Actor, formId: string) =>
    records.formColumns(actor.organisation_id, formId).pipe(Effect.flatMap(Effect.fromOption(() => new FormNotFound())))

  return SubmissionsOut.of({
    listSubmissions: Effect.fn("SubmissionsOut.listSubmissions")(function*(actor, formId, filter: SubmissionFilter, page) {
      const columns = yield* requireForm(actor, formId)
      const listed = yield* records.list(actor.organisation_id, formId, filter, page)
      return { ...listed, items: yield* withFiles(columns, listed.items) }
    }),
    getSubmission: Effect.fn("SubmissionsOut.getSubmission")(function*(actor: Actor, id: string) {
      const found = yield* records.find(actor.organisation_id, id).pipe(Effect.flatMap(Effect.fromOption(() => new SubmissionNotFound())))
      const columns = yield* records.formColumns(actor.organisation_id, found.form_id)
      if (columns._tag === "None") return found
      const [withFilesFound] = yield* withFiles(columns.value, [found])
      return withFilesFound ?? found
    }),
    exportSubmissions: Effect.fn("SubmissionsOut.exportSubmissions")(function*(actor, formId, filter: SubmissionFilter) {
      const columns = yield* requireForm(actor, formId)
      const rows = records.exportRows(actor.organisation_id, formId, filter)
      return {
        columns,
        rows: columns.file_slugs === undefined ? rows : rows.pipe(
          // A batch in, the same batch out: one read of uploads per batch of the export.
          Stream.mapArrayEffect((batch) => Effect.map(withFiles(columns, batch), (out) => out as typeof batch))
        )
      }
    }),
    eraseSubmission: Effect.fn("SubmissionsOut.eraseSubmission")(function*(actor: Actor, id: string) {
      yield* records.erase(actor, id, yield* Clock.currentTimeMillis)
      yield* removeErasedFiles
    }),
    contacts: Effect.fn("SubmissionsOut.contacts")(function*(actor, email, page) {
      return yield* records.contacts(actor.organisation_id, email === undefined ? undefined : email.trim().toLowerCase(), page)
    }),
    eraseContact: Effect.fn("SubmissionsOut.eraseContact")(function*(actor: Actor, id: string) {
      yield* records.eraseContact(actor, id, yield* Clock.currentTimeMillis)
      yield* removeErasedFiles
    }),
    listOutbox: Effect.fn("SubmissionsOut.listOutbox")(function*(actor, state, page) {
      return yield* outbox.list(actor?.organisation_id, state, page)
    }),
    retryOutboxEvent: Effect.fn("SubmissionsOut.retryOutboxEvent")(function*(actor: Actor | undefined, id: string) {
      return yield* outbox.retry(actor, id, yield* Clock.currentTimeMillis)
    })
  })
})

/** One retention sweep at Clock time: drafts and delivered payloads older than the policy's days. */
export const sweepRetention = (policy: RetentionPolicy) =>
  Effect.gen(function*() {
    const retention = yield* Retention
    const now = yield* Clock.currentTimeMillis
    const result = yield* retention.sweep({
      draftsUpdatedBefore: now - policy.draftRetentionDays * dayMs,
      deliveredBefore: now - policy.outboxRetentionDays * dayMs
    })
    // Uploads of the drafts just deleted, left pending, unreferenced for a day, or whose delete failed before.
    const uploadsRemoved = yield* removeOrphanedUploads
    return { ...result, uploads_removed: uploadsRemoved }
  }).pipe(Effect.withSpan("RetentionSweep.sweep"))

/** The default retention policy of CONTRACT §12. */
export const defaultRetentionPolicy: RetentionPolicy = { draftRetentionDays: 180, outboxRetentionDays: 30 }

/** The use cases; needs SubmissionRecords, OutboxAdmin, FileUploads and FileStorage. */
export const SubmissionsOutLive = { layer: Layer.effect(SubmissionsOut, makeSubmissionsOut) } as const
