/**
 * The rules of a file field that need the stored uploads (`in`, then `min`/`max` on the number of files), on the
 * values that passed the shape rule: every id must be a stored upload of this submission for this field.
 */
import type { FormField } from "../forms/FormField.js"
import type { FormSchema } from "../forms/FormSchema.js"
import type { FieldError, FieldErrors } from "../rules/FieldErrors.js"
import { defaultFileMaxCount, fileFieldType, fileIdsOf, fileInMessage } from "../rules/fileRules.js"
import type { UploadedFile } from "./UploadedFile.js"

/** A file field and the ids its value names. */
export interface FileChoice {
  readonly field: FormField
  readonly ids: ReadonlyArray<string>
}

const countOf = (bound: unknown): number | undefined => {
  const n = typeof bound === "number" ? bound : typeof bound === "string" ? Number(bound) : Number.NaN
  return Number.isFinite(n) ? n : undefined
}

/** The file fields of `values` with ids to check (fields whose value already failed a rule are skipped). */
export const fileChoicesOf = (
  schema: FormSchema,
  values: Readonly<Record<string, unknown>>,
  errors: FieldErrors | undefined
): ReadonlyArray<FileChoice> =>
  schema.fields.flatMap((field) => {
    if (field.type !== fileFieldType || errors?.[field.slug] !== undefined) return []
    const ids = fileIdsOf(Object.hasOwn(values, field.slug) ? values[field.slug] : undefined)
    return ids === undefined || ids.length === 0 ? [] : [{ field, ids }]
  })

/** The errors of `choices` against the submission's stored uploads; undefined when every rule passed. */
export const checkFileChoices = (
  choices: ReadonlyArray<FileChoice>,
  stored: ReadonlyArray<UploadedFile>
): FieldErrors | undefined => {
  let out: Record<string, ReadonlyArray<FieldError>> | undefined
  for (const { field, ids } of choices) {
    const own = new Set(stored.filter((file) => file.field === field.slug).map((file) => file.id))
    const list: Array<FieldError> = []
    if (ids.some((id) => !own.has(id))) list.push({ rule: "in", message: fileInMessage })
    const min = countOf(field.validation_rules?.min)
    const max = countOf(field.validation_rules?.max) ?? defaultFileMaxCount
    const count = ids.length
    if (min !== undefined && count < min) list.push({ rule: "min", message: `At least ${min} files.` })
    if (count > max) list.push({ rule: "max", message: `At most ${max} files.` })
    if (list.length > 0) (out ??= Object.create(null) as Record<string, ReadonlyArray<FieldError>>)[field.slug] = list
  }
  return out
}
