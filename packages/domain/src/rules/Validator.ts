/** What a compiled schema is: a strict and a relaxed validator, each answering errors and the unique values to check. */
import type { SlotChoice } from "./SlotChoice.js"
import type { FieldErrors } from "./FieldErrors.js"

/** A non-empty value of an `is_unique` field that passed every other rule of its field. */
export interface UniqueCandidate {
  readonly slug: string
  /** The field's unique key of the value (rules/uniqueKey.ts): what the claim table compares. */
  readonly normalized: string
}

export interface ValidationResult {
  /** undefined when no rule failed. */
  readonly errors: FieldErrors | undefined
  /** For the caller to check against stored values (the `unique` rule needs I/O). */
  readonly unique: ReadonlyArray<UniqueCandidate>
  /** The `time_slots` values that passed their shape rule, for the caller to check against the slots (CONTRACT §15). */
  readonly slots?: ReadonlyArray<SlotChoice> | undefined
  /**
   * The slugs of the fields inactive for these values (CONTRACT §18), in field order; absent when every field
   * is active. Inactive fields got no rule but `invalid` (relaxed) or none at all (strict) and gave no unique
   * value and no slot choice.
   */
  readonly inactive?: ReadonlyArray<string> | undefined
}

/**
 * Validates `values`. `context`: the map the form's conditions read to decide which fields are active
 * (CONTRACT §18: on a save, the saved values with the body over them); `values` itself when omitted.
 */
export type Validator = (values: Readonly<Record<string, unknown>>, context?: Readonly<Record<string, unknown>>) => ValidationResult

export interface CompiledRules {
  /** Every rule, every field of the schema (absent fields are checked for `required`). */
  readonly strict: Validator
  /** Every rule but `required`, only the slugs present in the values. */
  readonly relaxed: Validator
  /** Whether the form has conditions (`visible_if`): only then does a validator read its `context`. */
  readonly hasLogic: boolean
}
