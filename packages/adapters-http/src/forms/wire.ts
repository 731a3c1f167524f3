/**
 * The form model on the wire, shared by the features that show a form's parts: a values map (any JSON value
 * under a field's slug) and the public field (no option tags, no `maps_to`).
 */
import { Schema } from "effect"
import type { FormField, Values } from "@forms/domain"
import { fieldTypes, formTypes } from "@forms/domain/internal"
import { Bound, FormPosition } from "../http/wireNumbers.js"

/**
 * A member of a values map: any JSON value. Described, because JSON Schema drops a bare `{}` from
 * `additionalProperties`, and a map without it reads as an object with no members (openapi-typescript:
 * `Record<string, never>`). `Schema.Unknown` would lose the description.
 */
const AnyJsonValue = Schema.Json.annotate({ description: "Any JSON value." })
const valuesDescription = "A map from field slug to value."

/** A values map as a body sends it: documentation and the typed client's encoding (the server reads bodies itself). */
export const ValuesMap = Schema.Record(Schema.String, AnyJsonValue).annotate({ description: valuesDescription })

const isJson = Schema.is(Schema.Json)
const isValuesMap = (u: unknown): u is { readonly [slug: string]: Schema.Json } =>
  typeof u === "object" && u !== null && !Array.isArray(u) && isJson(u)

/**
 * A values map as an answer carries it: one check that the map is a JSON object, then written as it is. A
 * Record of Json would check and copy it member by member on every create, save and submit; this answers the
 * same bytes and is documented as the same Record (`toJsonSchema`).
 */
export const ValuesWire = Schema.declare(isValuesMap, { toCodecJson: () => undefined }).check(
  Schema.makeFilter(() => true, {
    toJsonSchema: () => ({ type: "object", additionalProperties: { description: "Any JSON value." } }),
    description: valuesDescription
  })
)
export type ValuesWire = typeof ValuesWire.Type

/** The domain types values as `unknown`; every stored value came from a JSON body or a jsonb column, so it is JSON. */
export const toValuesWire = (values: Values): ValuesWire => values as ValuesWire

/** A `visible_if` on the wire: null (always active) or a JSON Logic condition over the form's values. */
export const ConditionWire = Schema.NullOr(Schema.Json).annotate({
  description:
    "null (always active) or a JSON Logic condition over the form's values: operators var, ==, !=, ===, !==, <, <=, >, >=, !, !!, and, or, in; " +
    "a var names one field by its slug."
})

/**
 * A type as answered: a definition names a listed one (the body's enums), but a form stored before the lists
 * keeps its own, so an answer is any string.
 */
export const StoredFormType = Schema.String.annotate({
  description: `One of ${formTypes.join(", ")} (a form stored before this list may keep another type).`
})
export const StoredFieldType = Schema.String.annotate({
  description: `One of ${fieldTypes.join(", ")} (a form stored before this list may keep another type).`
})

export const FieldWire = Schema.Struct({
  slug: Schema.String,
  label: Schema.String,
  type: StoredFieldType,
  is_required: Schema.Boolean,
  options: Schema.NullOr(Schema.Array(Schema.Struct({ value: Schema.String, label: Schema.String }))),
  validation_rules: Schema.NullOr(Schema.Struct({
    min: Schema.optionalKey(Bound),
    max: Schema.optionalKey(Bound),
    regex: Schema.optionalKey(Schema.String),
    /** The form's own message for a failed `regex`. */
    regex_message: Schema.optionalKey(Schema.String)
  })),
  is_unique: Schema.Boolean,
  position: FormPosition,
  visible_if: ConditionWire,
  help: Schema.NullOr(Schema.String)
}).annotate({ identifier: "Field" })
export type FieldWire = typeof FieldWire.Type

/** The public field: option tags and `maps_to` are internal and dropped. */
export const toFieldWire = (field: FormField): FieldWire => {
  const rules = field.validation_rules
  return {
    slug: field.slug,
    label: field.label,
    type: field.type,
    is_required: field.is_required,
    options: field.options === null ? null : field.options.map((o) => ({ value: o.value, label: o.label })),
    validation_rules: rules === null ? null : {
      ...(rules.min === undefined ? {} : { min: rules.min }),
      ...(rules.max === undefined ? {} : { max: rules.max }),
      ...(rules.regex === undefined ? {} : { regex: rules.regex }),
      ...(rules.regex_message === undefined ? {} : { regex_message: rules.regex_message })
    },
    is_unique: field.is_unique,
    position: field.position,
    visible_if: field.visible_if ?? null,
    help: field.help ?? null
  }
}
