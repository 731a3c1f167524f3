/**
 * Every error the domain can cause, one per contract code (no HTTP status here), plus Unavailable. A
 * failure at or after a limit step reaches the caller wrapped in `Refused` (limits/Limited.ts).
 */
import { Schema } from "effect"
import { FieldErrors } from "./rules/FieldErrors.js"


export class FormNotFound extends Schema.TaggedError<FormNotFound>()("FormNotFound", {}) {}

export class SubmissionNotFound extends Schema.TaggedError<SubmissionNotFound>()("SubmissionNotFound", {}) {}

export class TimeSlotsNotAvailable
  extends Schema.TaggedError<TimeSlotsNotAvailable>()("TimeSlotsNotAvailable", {})
{}

export class PortalNotFound extends Schema.TaggedError<PortalNotFound>()("PortalNotFound", {}) {}

export class SectionNotFound extends Schema.TaggedError<SectionNotFound>()("SectionNotFound", {}) {}

export class ArtistGone extends Schema.TaggedError<ArtistGone>()("ArtistGone", {}) {}

export class AlreadySubmitted extends Schema.TaggedError<AlreadySubmitted>()("AlreadySubmitted", {}) {}

export class FormClosed extends Schema.TaggedError<FormClosed>()("FormClosed", {}) {}

export class ValidationFailed extends Schema.TaggedError<ValidationFailed>()("ValidationFailed", {
  fields: FieldErrors
}) {}

/** Refused by a client limit (CONTRACT §8); the limiter's state travels on the `Refused` around it. */
export class RateLimited extends Schema.TaggedError<RateLimited>()("RateLimited", {}) {}

/** The database cannot be reached or did not answer in time; nothing was written. */
export class Unavailable extends Schema.TaggedError<Unavailable>()("Unavailable", {
  reason: Schema.String
}) {}

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
