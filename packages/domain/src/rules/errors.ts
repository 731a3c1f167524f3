/** The error of values or a body that broke rules: every problem at once, keyed by slug or dotted path. */
import { Schema } from "effect"
import { FieldErrors } from "./FieldErrors.js"

export class ValidationFailed extends Schema.TaggedError<ValidationFailed>()("ValidationFailed", {
  fields: FieldErrors
}) {}
