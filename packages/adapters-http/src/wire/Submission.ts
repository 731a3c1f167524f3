/** The Submission resource on the wire (CONTRACT §2): snake_case, ISO 8601 UTC timestamps. */
import { Schema } from "effect"
import { HttpServerResponse } from "effect/http"
import type { Submission } from "@forms/domain"

export const ValuesWire = Schema.Record(Schema.String, Schema.Unknown).annotate({
  description: "A map from field slug to value."
})

export const SubmissionWire = Schema.Struct({
  id: Schema.String,
  status: Schema.Literals(["draft", "submitted"]),
  idempotency_key: Schema.String,
  auto_save_count: Schema.Int,
  event_id: Schema.NullOr(Schema.String),
  values: ValuesWire,
  created_at: Schema.String,
  updated_at: Schema.String,
  submitted_at: Schema.NullOr(Schema.String)
}).annotate({ identifier: "Submission" })
export type SubmissionWire = typeof SubmissionWire.Type

const iso = (epochMs: number): string => new Date(epochMs).toISOString()

export const toSubmissionWire = (submission: Submission): SubmissionWire => ({
  id: submission.id,
  status: submission.status,
  idempotency_key: submission.idempotency_key,
  auto_save_count: submission.auto_save_count,
  event_id: submission.event_id,
  values: submission.values,
  created_at: iso(submission.created_at),
  updated_at: iso(submission.updated_at),
  submitted_at: submission.submitted_at === null ? null : iso(submission.submitted_at)
})

/**
 * `{ data: <submission> }` as the response itself. The wire shape is plain JSON (strings, numbers, the stored
 * values), so it is written as it is: encoding it with `SubmissionEnvelope` would copy every value for an
 * identical result. The schemas below still document it (OpenAPI) and decode it (the typed client, the tests).
 */
export const submissionResponse = (submission: Submission, status: 200 | 201 = 200): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.jsonUnsafe({ data: toSubmissionWire(submission) }, { status })

// Two classes of one shape, so that the status (201 new, 200 replay) follows the class.
export class DraftCreated extends Schema.Class<DraftCreated>("DraftCreated")({ data: SubmissionWire }, {
  httpApiStatus: 201,
  description: "A new draft."
}) {}

export class DraftExisting extends Schema.Class<DraftExisting>("DraftExisting")({ data: SubmissionWire }, {
  description: "The draft or submission already stored under this idempotency key, in its stored state."
}) {}

export const SubmissionEnvelope = Schema.Struct({ data: SubmissionWire }).annotate({
  identifier: "SubmissionEnvelope"
})

/** Bodies as documented for OpenAPI and the typed client; the server checks them itself (see README). */
export const CreateDraftBody = Schema.Struct({
  idempotency_key: Schema.String.check(Schema.isPattern(/^[\x21-\x7E]{16,255}$/)),
  values: Schema.optionalKey(ValuesWire)
}).annotate({ identifier: "CreateDraftBody" })

export const ValuesBody = Schema.Struct({
  values: Schema.optionalKey(ValuesWire)
}).annotate({ identifier: "ValuesBody" })
