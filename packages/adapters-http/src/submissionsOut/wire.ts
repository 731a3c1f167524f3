/** "Submissions out" on the wire: submissions with form, tags and contact; contacts; outbox entries. */
import { Schema } from "effect"
import { AdminContact, type AdminSubmission, OutboxEntry } from "@forms/domain"
import { envelopeOf, iso, isoOrNull, listOf } from "../http/wireShapes.js"
import { toValuesWire } from "../forms/wire.js"
import { SubmissionWire } from "../publicForms/wire.js"
import { Count } from "../http/wireNumbers.js"

export const AdminSubmissionWire = Schema.Struct({
  ...SubmissionWire.fields,
  form_id: Schema.String,
  tags: Schema.Array(Schema.String),
  contact_id: Schema.NullOr(Schema.String)
}).annotate({ identifier: "AdminSubmission" })
export type AdminSubmissionWire = typeof AdminSubmissionWire.Type
export const AdminSubmissionEnvelope = envelopeOf(AdminSubmissionWire, "AdminSubmissionEnvelope")
export const AdminSubmissionList = listOf(AdminSubmissionWire, "AdminSubmissionList")

/** The list item, also one NDJSON line of an export. */
export const toAdminSubmissionWire = (s: AdminSubmission): AdminSubmissionWire => ({
  id: s.id,
  status: s.status,
  idempotency_key: s.idempotency_key,
  auto_save_count: s.auto_save_count,
  event_id: s.event_id,
  values: toValuesWire(s.values),
  created_at: iso(s.created_at),
  updated_at: iso(s.updated_at),
  submitted_at: isoOrNull(s.submitted_at),
  language: s.language,
  form_id: s.form_id,
  tags: s.tags,
  contact_id: s.contact_id,
  ...(s.places === undefined ? {} : { places: s.places.map((p) => ({ ...p })) }),
  ...(s.files === undefined ? {} : { files: s.files })
})

/** The domain's contact, `created_at` in ISO 8601. */
export const ContactWire = AdminContact.mapFields((f) => ({ ...f, created_at: Schema.String })).annotate({
  identifier: "AdminContact"
})
export const ContactList = listOf(ContactWire, "AdminContactList")
export const toContactWire = (c: AdminContact): typeof ContactWire.Type => ({
  id: c.id,
  key: c.key,
  tags: c.tags,
  submission_ids: c.submission_ids,
  created_at: iso(c.created_at)
})

/** The domain's outbox entry: `attempts` a count, its instants in ISO 8601. */
export const OutboxEntryWire = OutboxEntry.mapFields((f) => ({
  ...f,
  attempts: Count,
  created_at: Schema.String,
  available_at: Schema.String,
  dead_at: Schema.NullOr(Schema.String)
})).annotate({ identifier: "OutboxEvent" })
export const OutboxEntryEnvelope = envelopeOf(OutboxEntryWire, "OutboxEventEnvelope")
export const OutboxEntryList = listOf(OutboxEntryWire, "OutboxEventList")
export const toOutboxEntryWire = (e: OutboxEntry): typeof OutboxEntryWire.Type => ({
  id: e.id,
  type: e.type,
  attempts: e.attempts,
  last_error: e.last_error,
  created_at: iso(e.created_at),
  available_at: iso(e.available_at),
  dead_at: isoOrNull(e.dead_at)
})
