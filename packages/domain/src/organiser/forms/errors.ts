/** The errors of form authoring (CONTRACT §7, §12); no HTTP status here. */
import { Schema } from "effect"

/** A definition `PUT` without `If-Match`. */
export class PreconditionRequired extends Schema.TaggedError<PreconditionRequired>()("PreconditionRequired", {}) {}

/** `If-Match` names a revision that is no longer current (or is weak, or not a quoted tag). */
export class RevisionConflict extends Schema.TaggedError<RevisionConflict>()("RevisionConflict", {}) {}
