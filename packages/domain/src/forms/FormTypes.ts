/**
 * The form types and field types a definition may name (CONTRACT §12): one list each, for the definition check,
 * the API document's enums and the start-up report of forms stored before the lists.
 */
import { Schema } from "effect"

export const formTypes = ["registration", "volunteer", "artist_advance"] as const
export const FormType = Schema.Literals(formTypes)
export type FormType = typeof FormType.Type

/** The field types whose values have a rule of the same name (rules/FieldErrors.ts), in the rules' order. */
export const typeCheckedFieldTypes = ["email", "url", "numeric", "date", "boolean", "phone"] as const

export const fieldTypes = [
  "text",
  "textarea",
  ...typeCheckedFieldTypes,
  "select",
  "radio",
  "checkbox",
  "checkboxes",
  "multi_select",
  "time_slots",
  "file",
  "hidden"
] as const
export const FieldType = Schema.Literals(fieldTypes)
export type FieldType = typeof FieldType.Type

const formTypeSet: ReadonlySet<string> = new Set(formTypes)
const fieldTypeSet: ReadonlySet<string> = new Set(fieldTypes)

/** Case-sensitive, as every type comparison is. */
export const isFormType = (type: string): type is FormType => formTypeSet.has(type)
export const isFieldType = (type: string): type is FieldType => fieldTypeSet.has(type)

/** How a refused type is answered: the valid ones named, so a typo is seen at once. */
export const formTypeMessage = (type: string): string =>
  `The form type ${JSON.stringify(type)} is not one of ${formTypes.join(", ")}.`
export const fieldTypeMessage = (type: string): string =>
  `The field type ${JSON.stringify(type)} is not one of ${fieldTypes.join(", ")}.`
