/**
 * The errors of the public forms (CONTRACT §3, §7) and of their ports; no HTTP status here. A failure at or
 * after a limit step reaches the caller wrapped in `Refused` (limits/Limited.ts).
 */
import { Schema } from "effect"
import { FieldErrors } from "../rules/FieldErrors.js"

export class SubmissionNotFound extends Schema.TaggedError<SubmissionNotFound>()("SubmissionNotFound", {}) {}

export class TimeSlotsNotAvailable
  extends Schema.TaggedError<TimeSlotsNotAvailable>()("TimeSlotsNotAvailable", {})
{}

export class AlreadySubmitted extends Schema.TaggedError<AlreadySubmitted>()("AlreadySubmitted", {}) {}

export class FormClosed extends Schema.TaggedError<FormClosed>()("FormClosed", {}) {}

/** Port-level: the draft changed after the use case validated it; the use case reads and validates again. */
export class VersionConflict extends Schema.TaggedError<VersionConflict>()("VersionConflict", {}) {}

/** Port-level: the places of a submit were refused (CONTRACT §15, `full` and the other `time_slots` rules). */
export class SlotsRefused extends Schema.TaggedError<SlotsRefused>()("SlotsRefused", {
  fields: FieldErrors
}) {}

/** Port-level: a unique value was claimed by another submitted submission in the meantime. */
export class UniqueTaken extends Schema.TaggedError<UniqueTaken>()("UniqueTaken", {
  slugs: Schema.Array(Schema.String)
}) {}
