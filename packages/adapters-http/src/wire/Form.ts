/** The Form resource on the wire (CONTRACT §2): sections with their fields, loose fields, no internals. */
import { Schema } from "effect"
import type { FormField, FormView } from "@forms/domain"

const Bound = Schema.Union([Schema.Number, Schema.String])

export const FieldWire = Schema.Struct({
  slug: Schema.String,
  label: Schema.String,
  type: Schema.String,
  is_required: Schema.Boolean,
  options: Schema.NullOr(Schema.Array(Schema.Struct({ value: Schema.String, label: Schema.String }))),
  validation_rules: Schema.NullOr(Schema.Struct({
    min: Schema.optionalKey(Bound),
    max: Schema.optionalKey(Bound),
    regex: Schema.optionalKey(Schema.String)
  })),
  is_unique: Schema.Boolean,
  position: Schema.Number
}).annotate({ identifier: "Field" })
export type FieldWire = typeof FieldWire.Type

export const FormSectionWire = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  position: Schema.Number,
  fields: Schema.Array(FieldWire)
}).annotate({ identifier: "FormSection" })

export const FormWire = Schema.Struct({
  name: Schema.String,
  type: Schema.String,
  event: Schema.NullOr(Schema.Struct({ id: Schema.String, name: Schema.String })),
  accepts_submissions: Schema.Boolean,
  opens_at: Schema.NullOr(Schema.String),
  closes_at: Schema.NullOr(Schema.String),
  sections: Schema.Array(FormSectionWire),
  fields: Schema.Array(FieldWire)
}).annotate({ identifier: "Form" })
export type FormWire = typeof FormWire.Type

export const FormEnvelope = Schema.Struct({ data: FormWire }).annotate({ identifier: "FormEnvelope" })

/** Plain code-unit order, never locale collation (CONTRACT §2). */
export const compareCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

const byPositionThen = <A extends { readonly position: number }>(key: (a: A) => string) => (x: A, y: A) =>
  x.position - y.position || compareCodeUnits(key(x), key(y))

/** The public `<field>` of CONTRACT §2: option tags and `maps_to` are internal and dropped. */
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
      ...(rules.regex === undefined ? {} : { regex: rules.regex })
    },
    is_unique: field.is_unique,
    position: field.position
  }
}

const iso = (epochMs: number | null): string | null => (epochMs === null ? null : new Date(epochMs).toISOString())

export const toFormWire = (view: FormView): FormWire => {
  const { schema } = view
  const sections = [...schema.sections].sort(byPositionThen((s) => s.id))
  const sectionIds = new Set(sections.map((s) => s.id))
  const fields = [...schema.fields].sort(byPositionThen((f) => f.slug))
  const inSection = (id: string) => fields.filter((f) => f.section_id === id).map(toFieldWire)
  return {
    name: schema.name,
    type: schema.type,
    event: schema.event === null ? null : { id: schema.event.id, name: schema.event.name },
    accepts_submissions: view.accepts_submissions,
    opens_at: iso(schema.opens_at),
    closes_at: iso(schema.closes_at),
    sections: sections.map((s) => ({ id: s.id, name: s.name, position: s.position, fields: inSection(s.id) })),
    // A field whose section is not among the schema's sections is shown as a loose field.
    fields: fields.filter((f) => f.section_id === null || !sectionIds.has(f.section_id)).map(toFieldWire)
  }
}
