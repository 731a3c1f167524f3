/** The form field model: the definition every rule is compiled from, decoded with Effect Schema. */
import { Schema } from "effect"
import { compareStrings } from "../shared/compareStrings.js"

export const SlugPattern = /^[a-z][a-z0-9_]{0,63}$/
export const Slug = Schema.String.check(Schema.isPattern(SlugPattern))

/** What a field's `maps_to` may name: `artist.<key>` or `engagement.<key>`, the key shaped as a slug. */
export const mapsToPattern = /^(artist|engagement)\.[a-z][a-z0-9_]{0,63}$/

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

export const FieldOption = Schema.Struct({
  value: Schema.String,
  label: Schema.String,
  tags: Schema.Array(Schema.String)
})
export type FieldOption = typeof FieldOption.Type

export const Bound = Schema.Union([Schema.Finite, Schema.String])

export const ValidationRules = Schema.Struct({
  min: Schema.optional(Bound),
  max: Schema.optional(Bound),
  regex: Schema.optional(Schema.String),
  /** Shown instead of the default message when `regex` fails (at most 200 code points). */
  regex_message: Schema.optional(Schema.String),
  /** `file` fields: the largest upload in bytes. */
  max_bytes: Schema.optional(Schema.Finite),
  /** `file` fields: MIME types, `type/*` or extensions such as `.pdf`. */
  accept: Schema.optional(Schema.Array(Schema.String))
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
  maps_to: Schema.NullOr(Schema.String),
  /** A condition in JSON Logic (CONTRACT §18, `logic/`); absent or null: always active. */
  visible_if: Schema.optionalKey(Schema.NullOr(Schema.Json)),
  /** Plain text shown under the label (§18); absent or null: none. */
  help: Schema.optionalKey(Schema.NullOr(Schema.String))
})
export type FormFieldInput = typeof FormFieldInput.Type

/** A field with its options normalised to `{ value, label, tags }`. */
export const FormField = Schema.Struct({
  ...FormFieldInput.fields,
  options: Schema.NullOr(Schema.Array(FieldOption))
})
export type FormField = typeof FormField.Type

export const normalizeOption = (option: FieldOptionInput): FieldOption =>
  typeof option === "string"
    ? { value: option, label: option, tags: [] }
    : { value: option.value, label: option.label ?? option.value, tags: option.tags ?? [] }

export const normalizeField = (field: FormFieldInput): FormField => ({
  ...field,
  options: field.options === null ? null : field.options.map(normalizeOption)
})

/** The order fields are shown and read in: by position, then slug (code units). */
export const byPositionThenSlug = (a: FormField, b: FormField): number =>
  a.position - b.position || compareStrings(a.slug, b.slug)
