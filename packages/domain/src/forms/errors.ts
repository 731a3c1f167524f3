/** The errors about a form itself, shared by every feature that reads one (no HTTP status here). */
import { Schema } from "effect"

/** An unknown form: a token that opens nothing, or an id of no form of the organisation. */
export class FormNotFound extends Schema.TaggedError<FormNotFound>()("FormNotFound", {}) {}

/**
 * Port-level: a save or submit checked, in its own statement, the form's revision it validated against,
 * and the form has moved on. Nothing was written; the use case validates again with the fresh rules.
 */
export class RevisionChanged extends Schema.TaggedError<RevisionChanged>()("RevisionChanged", {}) {}
