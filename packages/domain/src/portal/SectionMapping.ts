/** Maps an engagement's advance sections to the sections of the advance schema, by case-sensitive name equality. */
import { Schema } from "effect"
import { byPositionThenSlug, type FormField } from "../forms/FormField.js"
import { type FormSchema, FormSection } from "../forms/FormSchema.js"
import { compareStrings } from "../shared/compareStrings.js"
import { AdvanceSection } from "./Engagement.js"

/** An advance section with the form section it maps to (null: not available). */
export const PortalSection = Schema.Struct({
  ...AdvanceSection.fields,
  form_section: Schema.NullOr(FormSection)
})
export type PortalSection = typeof PortalSection.Type

const byPositionThenId = (a: { position: number; id: string }, b: { position: number; id: string }): number =>
  a.position - b.position || compareStrings(a.id, b.id)


/**
 * The form section named exactly `name`. Names are not unique in a schema; when several match,
 * the first by position then id wins, so the choice is stable.
 */
export const formSectionNamed = (schema: FormSchema, name: string): FormSection | null => {
  const matches = schema.sections.filter((section) => section.name === name).sort(byPositionThenId)
  return matches[0] ?? null
}

/** The engagement's sections ordered by position then id, each with its form section (or null). */
export const mapSections = (
  sections: ReadonlyArray<AdvanceSection>,
  schema: FormSchema | null
): ReadonlyArray<PortalSection> =>
  [...sections]
    .sort(byPositionThenId)
    .map((section) => ({ ...section, form_section: schema === null ? null : formSectionNamed(schema, section.name) }))

/** The section `sectionId` of the engagement, only when it maps to a form section. */
export const findMappedSection = (
  sections: ReadonlyArray<AdvanceSection>,
  schema: FormSchema | null,
  sectionId: string
): { readonly section: AdvanceSection; readonly form_section: FormSection } | null => {
  const section = sections.find((candidate) => candidate.id === sectionId)
  if (section === undefined || schema === null) return null
  const formSection = formSectionNamed(schema, section.name)
  return formSection === null ? null : { section, form_section: formSection }
}

/** The fields of a form section, ordered by position then slug. */
export const sectionFields = (schema: FormSchema, formSectionId: string): ReadonlyArray<FormField> =>
  schema.fields.filter((field) => field.section_id === formSectionId).sort(byPositionThenSlug)
