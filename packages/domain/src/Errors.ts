/** Every error the domain can cause, one per contract code (no HTTP status here), plus Unavailable. */
import { Schema } from "effect"

export const FieldErrorSchema = Schema.Struct({
  rule: Schema.String,
  message: Schema.String
})
export const FieldErrorsSchema = Schema.Record(Schema.String, Schema.Array(FieldErrorSchema))

/** The limiter's answer, for the RateLimit headers (CONTRACT §8). */
export const RateLimitState = Schema.Struct({
  policy: Schema.String,
  limit: Schema.Int,
  window_seconds: Schema.Int,
  remaining: Schema.Int,
  /** Seconds until the oldest counted request leaves the window (0 when none is counted). */
  reset_seconds: Schema.Int
})
export type RateLimitState = typeof RateLimitState.Type

const rateLimit = Schema.optional(RateLimitState)

export class FormNotFound extends Schema.TaggedError<FormNotFound>()("FormNotFound", {}) {}

export class SubmissionNotFound extends Schema.TaggedError<SubmissionNotFound>()("SubmissionNotFound", {}) {}

export class TimeSlotsNotAvailable
  extends Schema.TaggedError<TimeSlotsNotAvailable>()("TimeSlotsNotAvailable", {})
{}

export class PortalNotFound extends Schema.TaggedError<PortalNotFound>()("PortalNotFound", {}) {}

export class SectionNotFound extends Schema.TaggedError<SectionNotFound>()("SectionNotFound", {
  rateLimit
}) {}

export class ArtistGone extends Schema.TaggedError<ArtistGone>()("ArtistGone", {}) {}

export class AlreadySubmitted extends Schema.TaggedError<AlreadySubmitted>()("AlreadySubmitted", {
  rateLimit
}) {}

export class FormClosed extends Schema.TaggedError<FormClosed>()("FormClosed", {
  rateLimit
}) {}

export class ValidationFailed extends Schema.TaggedError<ValidationFailed>()("ValidationFailed", {
  fields: FieldErrorsSchema,
  rateLimit
}) {}

export class RateLimited extends Schema.TaggedError<RateLimited>()("RateLimited", {
  state: RateLimitState
}) {}

/** The database cannot be reached or did not answer in time; nothing was written. */
export class Unavailable extends Schema.TaggedError<Unavailable>()("Unavailable", {
  reason: Schema.String
}) {}

/** Port-level: the draft changed after the use case validated it; the use case reads and validates again. */
export class VersionConflict extends Schema.TaggedError<VersionConflict>()("VersionConflict", {}) {}

/** Port-level: a unique value was claimed by another submitted submission in the meantime. */
export class UniqueTaken extends Schema.TaggedError<UniqueTaken>()("UniqueTaken", {
  slugs: Schema.Array(Schema.String)
}) {}
