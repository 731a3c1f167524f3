/** A form submission: a draft saved any number of times, then submitted once. */
import { Schema } from "effect"
import { Values } from "../forms/Values.js"
import { FilesBySlug } from "../files/UploadedFile.js"
import { SubmissionPlace } from "../shifts/RegistrationData.js"

export const SubmissionStatus = Schema.Literals(["draft", "submitted"])
export type SubmissionStatus = typeof SubmissionStatus.Type

export const Submission = Schema.Struct({
  id: Schema.String,
  schema_id: Schema.String,
  status: SubmissionStatus,
  idempotency_key: Schema.String,
  auto_save_count: Schema.Number,
  event_id: Schema.NullOr(Schema.String),
  /** The master artist for portal drafts; null for public forms. */
  subject_id: Schema.NullOr(Schema.String),
  values: Values,
  /**
   * The language chosen on its create, replaced by each later save or submit that named one explicitly
   * (CONTRACT §19): one of the form's languages, and the language of its messages.
   */
  language: Schema.String,
  /** Epoch milliseconds. */
  created_at: Schema.Number,
  updated_at: Schema.Number,
  submitted_at: Schema.NullOr(Schema.Number),
  /** Increases on every write; submit commits only at the version that was validated. */
  version: Schema.Number,
  /** On the answers of a form with a `time_slots` field (CONTRACT §22): its places; `[]` for a draft. */
  places: Schema.optionalKey(Schema.Array(SubmissionPlace)),
  /** Only on the answer of the submit that issued it (CONTRACT §22): the manage token, never stored as it is. */
  manage_token: Schema.optionalKey(Schema.String),
  /** On the answers of a form with a file field (CONTRACT §23): its uploads by field slug. */
  files: Schema.optionalKey(FilesBySlug)
})
export type Submission = typeof Submission.Type
