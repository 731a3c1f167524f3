/** The records of "Submissions out" (CONTRACT §12): submissions as the organiser sees them, contacts, outbox entries. */
import { Schema } from "effect"
import { FilesBySlug } from "../files/UploadedFile.js"
import { Values } from "../forms/Values.js"
import { SubmissionStatus } from "../publicForms/Submission.js"
import { SubmissionPlace } from "../shifts/RegistrationData.js"
import type { CreatedKey } from "../shared/paging.js"

/** A submission (§2) with its form, tags and contact. Values are shown as stored, dropped slugs included. */
export const AdminSubmission = Schema.Struct({
  id: Schema.String,
  form_id: Schema.String,
  status: SubmissionStatus,
  idempotency_key: Schema.String,
  auto_save_count: Schema.Number,
  event_id: Schema.NullOr(Schema.String),
  values: Values,
  /** Sorted, no duplicates. */
  tags: Schema.Array(Schema.String),
  contact_id: Schema.NullOr(Schema.String),
  /** The submission's language (CONTRACT §19). */
  language: Schema.String,
  /** Epoch ms. */
  created_at: Schema.Number,
  updated_at: Schema.Number,
  submitted_at: Schema.NullOr(Schema.Number),
  /** On a form with a `time_slots` field (CONTRACT §22): its places now, by slot id; `[]` for a draft. */
  places: Schema.optionalKey(Schema.Array(SubmissionPlace)),
  /** On a submission of a form with a file field (CONTRACT §23): its uploads by field slug. */
  files: Schema.optionalKey(FilesBySlug)
})
export type AdminSubmission = typeof AdminSubmission.Type

/** `?status=` and `?since=` (epoch ms; keeps `updated_at >= since`). */
export const SubmissionFilter = Schema.Struct({
  status: Schema.UndefinedOr(SubmissionStatus),
  since: Schema.UndefinedOr(Schema.Number)
})
export type SubmissionFilter = typeof SubmissionFilter.Type

export const submissionKeyOf = (s: AdminSubmission): CreatedKey => ({ created_at: s.created_at, id: s.id })

export const AdminContact = Schema.Struct({
  id: Schema.String,
  /** An email lower-cased, or a phone's digits. */
  key: Schema.String,
  tags: Schema.Array(Schema.String),
  /** Oldest first. */
  submission_ids: Schema.Array(Schema.String),
  created_at: Schema.Number
})
export type AdminContact = typeof AdminContact.Type

export const contactKeyOf = (c: AdminContact): CreatedKey => ({ created_at: c.created_at, id: c.id })

export const OutboxState = Schema.Literals(["dead", "pending", "delivered"])
export type OutboxState = typeof OutboxState.Type

/** An outbox event as listed: never its payload. */
export const OutboxEntry = Schema.Struct({
  id: Schema.String,
  type: Schema.String,
  attempts: Schema.Number,
  last_error: Schema.NullOr(Schema.String),
  created_at: Schema.Number,
  available_at: Schema.Number,
  dead_at: Schema.NullOr(Schema.Number)
})
export type OutboxEntry = typeof OutboxEntry.Type

export const outboxKeyOf = (e: OutboxEntry): CreatedKey => ({ created_at: e.created_at, id: e.id })

/**
 * The columns of an export: the slugs of the form's current fields, in the order of §12, and, when the form has
 * time-slot fields, their slugs with the label of every slot they may hold (by id), so their cells name slots.
 */
export const ExportColumns = Schema.Struct({
  slugs: Schema.Array(Schema.String),
  time_slots: Schema.optional(Schema.Struct({
    slugs: Schema.Array(Schema.String),
    /** Slot id → `<name> <date> <start>–<end>`; an id without a label (a slot deleted since) is written as stored. */
    labels: Schema.Record(Schema.String, Schema.String)
  })),
  /** The slugs of the form's file fields, when it has any: their cells name the files. */
  file_slugs: Schema.optionalKey(Schema.Array(Schema.String))
})
export type ExportColumns = typeof ExportColumns.Type

/** What one retention sweep did; `ran` is false when another process held the sweep. */
export const SweepResult = Schema.Struct({
  ran: Schema.Boolean,
  drafts_deleted: Schema.Number,
  payloads_emptied: Schema.Number
})
export type SweepResult = typeof SweepResult.Type

/**
 * What erasure leaves of an outbox payload (the convention the webhook engine relies on): its ids only
 * (string members named `id` or ending in `_id`) and `erased: true`. No value, no time, nothing submitted.
 */
export const erasedPayload = (payload: Readonly<Record<string, unknown>>): Record<string, unknown> => {
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>
  for (const [key, value] of Object.entries(payload)) {
    if ((key === "id" || key.endsWith("_id")) && typeof value === "string") out[key] = value
  }
  out["erased"] = true
  return out
}
