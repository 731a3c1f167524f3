/** The form field model: the definition every rule is compiled from, decoded with Effect Schema. */
import { Schema } from "effect"

export const SlugPattern = /^[a-z][a-z0-9_]{0,63}$/
export const Slug = Schema.String.check(Schema.isPattern(SlugPattern))

/** An option as a fixture may give it: a plain string (value = label) or an object. */
export const FieldOptionInput = Schema.Union([
  Schema.String,
  Schema.Struct({
    value: Schema.String,
    label: Schema.optional(Schema.String),
    tags: Schema.optional(Schema.Array(Schema.String))
  })
])
export type FieldOptionInput = typeof FieldOptionInput.Type

export interface FieldOption {
  readonly value: string
  readonly label: string
  readonly tags: ReadonlyArray<string>
}

export const Bound = Schema.Union([Schema.Finite, Schema.String])

export const ValidationRules = Schema.Struct({
  min: Schema.optional(Bound),
  max: Schema.optional(Bound),
  regex: Schema.optional(Schema.String)
})
export type ValidationRules = typeof ValidationRules.Type

/** A field as stored and as given in a fixture (§10). */
export const FormFieldInput = Schema.Struct({
  id: Schema.String,
  section_id: Schema.NullOr(Schema.String),
  slug: Slug,
  label: Schema.String,
  type: Schema.String,
  is_required: Schema.Boolean,
  options: Schema.NullOr(Schema.Array(FieldOptionInput)),
  validation_rules: Schema.NullOr(ValidationRules),
  is_unique: Schema.Boolean,
  position: Schema.Finite,
  maps_to: Schema.NullOr(Schema.String)
})
export type FormFieldInput = typeof FormFieldInput.Type

/** A field with its options normalised to `{ value, label, tags }`. */
export interface FormField {
  readonly id: string
  readonly section_id: string | null
  readonly slug: string
  readonly label: string
  readonly type: string
  readonly is_required: boolean
  readonly options: ReadonlyArray<FieldOption> | null
  readonly validation_rules: ValidationRules | null
  readonly is_unique: boolean
  readonly position: number
  readonly maps_to: string | null
}

export const normalizeOption = (option: FieldOptionInput): FieldOption =>
  typeof option === "string"
    ? { value: option, label: option, tags: [] }
    : { value: option.value, label: option.label ?? option.value, tags: option.tags ?? [] }

export const normalizeField = (field: FormFieldInput): FormField => ({
  ...field,
  options: field.options === null ? null : field.options.map(normalizeOption)
})
