/** The "Submissions out" use cases over the SubmissionRecords and OutboxAdmin ports, and the retention sweep. */
import { Clock, Effect, Layer } from "effect"
import { FormNotFound } from "../forms/errors.js"
import { SubmissionNotFound } from "../publicForms/errors.js"
import type { Actor } from "../shared/Actor.js"
import { OutboxAdmin } from "./OutboxAdmin.js"
import { Retention } from "./Retention.js"
import { SubmissionRecords } from "./SubmissionRecords.js"
import { type RetentionPolicy, SubmissionsOut } from "./SubmissionsOut.js"
import type { SubmissionFilter } from "./SubmissionsOutModel.js"

const dayMs = 86_400_000

export const makeSubmissionsOut = Effect.gen(function*() {
  const records = yield* SubmissionRecords
  const outbox = yield* OutboxAdmin

  const requireForm = (actor: Actor, formId: string) =>
    records.formColumns(actor.organisation_id, formId).pipe(Effect.flatMap(Effect.fromOption(() => new FormNotFound())))

  return SubmissionsOut.of({
    listSubmissions: Effect.fn("SubmissionsOut.listSubmissions")(function*(actor, formId, filter: SubmissionFilter, page) {
      yield* requireForm(actor, formId)
      return yield* records.list(actor.organisation_id, formId, filter, page)
    }),
    getSubmission: Effect.fn("SubmissionsOut.getSubmission")(function*(actor: Actor, id: string) {
      return yield* records.find(actor.organisation_id, id).pipe(Effect.flatMap(Effect.fromOption(() => new SubmissionNotFound())))
    }),
    exportSubmissions: Effect.fn("SubmissionsOut.exportSubmissions")(function*(actor, formId, filter: SubmissionFilter) {
      const columns = yield* requireForm(actor, formId)
      return { columns, rows: records.exportRows(actor.organisation_id, formId, filter) }
    }),
    eraseSubmission: Effect.fn("SubmissionsOut.eraseSubmission")(function*(actor: Actor, id: string) {
      return yield* records.erase(actor, id, yield* Clock.currentTimeMillis)
    }),
    contacts: Effect.fn("SubmissionsOut.contacts")(function*(actor, email, page) {
      return yield* records.contacts(actor.organisation_id, email === undefined ? undefined : email.trim().toLowerCase(), page)
    }),
    eraseContact: Effect.fn("SubmissionsOut.eraseContact")(function*(actor: Actor, id: string) {
      return yield* records.eraseContact(actor, id, yield* Clock.currentTimeMillis)
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
    return yield* retention.sweep({
      draftsUpdatedBefore: now - policy.draftRetentionDays * dayMs,
      deliveredBefore: now - policy.outboxRetentionDays * dayMs
    })
  }).pipe(Effect.withSpan("RetentionSweep.sweep"))

/** The default retention policy of CONTRACT §12. */
export const defaultRetentionPolicy: RetentionPolicy = { draftRetentionDays: 180, outboxRetentionDays: 30 }

/** The use cases; needs SubmissionRecords and OutboxAdmin. */
export const SubmissionsOutLive = { layer: Layer.effect(SubmissionsOut, makeSubmissionsOut) } as const
