/** The per-field error lists of the envelope (CONTRACT §1), in rule order: one definition for the domain and the wire. */
import { Schema } from "effect"
import { typeCheckedFieldTypes } from "../forms/FormTypes.js"

/** Every rule name of CONTRACT §1, in the order rules run within a field. */
export const RuleName = Schema.Literals([
  "invalid",
  "required",
  "max_length",
  ...typeCheckedFieldTypes,
  "in",
  "closed",
  "min",
  "max",
  "regex",
  "overlap",
  "unique",
  "full",
  "logic",
  "file_type",
  "translation"
])
export type RuleName = typeof RuleName.Type

export const FieldError = Schema.Struct({ rule: RuleName, message: Schema.String })
export type FieldError = typeof FieldError.Type

/** slug (or body key) → non-empty list of errors. Null prototype when built by the domain. */
export const FieldErrors = Schema.Record(Schema.String, Schema.Array(FieldError))
export type FieldErrors = typeof FieldErrors.Type

export const uniqueMessage = "This value has already been used."
