/** The one failure every port and use case may answer: the store could not be reached (no HTTP status here). */
import { Schema } from "effect"

/** The database cannot be reached or did not answer in time; nothing was written. */
export class Unavailable extends Schema.TaggedError<Unavailable>()("Unavailable", {
  reason: Schema.String
}) {}
