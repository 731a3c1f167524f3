/** The per-field error lists of the envelope (CONTRACT §1), in rule order. */
export type RuleName =
  | "invalid"
  | "required"
  | "max_length"
  | "email"
  | "url"
  | "numeric"
  | "date"
  | "boolean"
  | "phone"
  | "in"
  | "min"
  | "max"
  | "regex"
  | "unique"

export interface FieldError {
  readonly rule: RuleName
  readonly message: string
}

/** slug (or body key) → non-empty list of errors. Null prototype. */
export type FieldErrors = Readonly<Record<string, ReadonlyArray<FieldError>>>

/** A non-empty value of an `is_unique` field that passed every other rule of its field. */
export interface UniqueCandidate {
  readonly slug: string
  /** The value's key (uniqueKey.ts: emails lower-cased, numbers by value, phones by digits); what claims compare. */
  readonly normalized: string
}

export interface ValidationResult {
  /** undefined when no rule failed. */
  readonly errors: FieldErrors | undefined
  /** For the caller to check against stored values (the `unique` rule needs I/O). */
  readonly unique: ReadonlyArray<UniqueCandidate>
}

export type Validator = (values: Readonly<Record<string, unknown>>) => ValidationResult

export interface CompiledRules {
  /** Every rule, every field of the schema (absent fields are checked for `required`). */
  readonly strict: Validator
  /** Every rule but `required`, only the slugs present in the values. */
  readonly relaxed: Validator
}

export const uniqueMessage = "This value has already been used."
