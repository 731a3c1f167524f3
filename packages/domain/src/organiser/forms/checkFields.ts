/** The checks that refuse a schema's fields before it is stored, so no request meets a broken rule. */
import type { FormField } from "../../forms/FormField.js"
import { checkDefinition } from "./checkDefinition.js"

/**
 * Every problem of `fields` alone (no form type, their sections taken as given), one sentence each naming
 * the field: the field part of the one definition check (`checkDefinition.ts`).
 */
export const checkFieldDefinitions = (fields: ReadonlyArray<FormField>): ReadonlyArray<string> => {
  const sections = [...new Set(fields.flatMap((f) => (f.section_id === null ? [] : [f.section_id])))]
    .map((id) => ({ id, name: id, position: 0 }))
  return checkDefinition({ type: undefined, sections, fields }).map((problem) => {
    const index = Number(problem.path.split(".")[1])
    const slug: unknown = fields[index]?.slug
    const name = typeof slug === "string" ? JSON.stringify(slug) : String(slug)
    return `field ${name}: ${problem.error.message}`
  })
}
