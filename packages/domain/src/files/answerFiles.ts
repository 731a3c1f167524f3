/**
 * The `files` of an answer: a submitted submission lists the uploads its values reference (in the values' order),
 * a draft every stored upload of each field. Only on forms with a file field.
 */
import type { FormSchema } from "../forms/FormSchema.js"
import { fileFieldType, fileIdsOf } from "../rules/fileRules.js"
import { fileChoicesOf } from "./fileChoices.js"
import { type FileInfo, type FilesBySlug, fileInfoOf, filesBySlug, type UploadedFile } from "./UploadedFile.js"

export const hasFileField = (schema: FormSchema): boolean => schema.fields.some((field) => field.type === fileFieldType)

/** The stored uploads `values` reference, by field slug, each listed once in the order the value names it. */
export const referencedFiles = (
  schema: FormSchema,
  values: Readonly<Record<string, unknown>>,
  stored: ReadonlyArray<UploadedFile>
): FilesBySlug => {
  const byId = new Map(stored.map((file) => [file.id, file]))
  const out = Object.create(null) as Record<string, Array<FileInfo>>
  for (const { field, ids } of fileChoicesOf(schema, values, undefined)) {
    const seen = new Set<string>()
    for (const id of ids) {
      const file = byId.get(id)
      if (file === undefined || file.field !== field.slug || seen.has(id)) continue
      seen.add(id)
      ;(out[field.slug] ??= []).push(fileInfoOf(file))
    }
  }
  return out
}

/** The ids listed in `files`. */
export const fileIdsIn = (files: FilesBySlug): ReadonlyArray<string> => Object.values(files).flatMap((list) => list.map((f) => f.id))

/** An answer's `files`: what a submitted one references, every stored upload of a draft. */
export const answerFiles = (
  schema: FormSchema,
  submission: { readonly status: string; readonly values: Readonly<Record<string, unknown>> },
  stored: ReadonlyArray<UploadedFile>
): FilesBySlug => submission.status === "draft" ? filesBySlug(stored) : referencedFiles(schema, submission.values, stored)

/**
 * `answerFiles` without the form: a draft lists every stored upload, a submitted submission those its value of the
 * upload's field names (oldest first), for the organiser's reads, which know the form's file slugs only.
 */
export const storedAnswerFiles = (
  submission: { readonly status: string; readonly values: Readonly<Record<string, unknown>> },
  stored: ReadonlyArray<UploadedFile>
): FilesBySlug =>
  submission.status === "draft" ? filesBySlug(stored) : filesBySlug(stored, (file) => {
    const ids = Object.hasOwn(submission.values, file.field) ? fileIdsOf(submission.values[file.field]) : undefined
    return ids !== undefined && ids.includes(file.id)
  })
