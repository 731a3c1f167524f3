/** An upload of a file field: its row (pending while its content streams, then stored) and what answers show of it. */
import { Schema } from "effect"

export const FileState = Schema.Literals(["pending", "stored"])
export type FileState = typeof FileState.Type

/** What a submission, an event or an export shows of one upload. */
export const FileInfo = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  size: Schema.Int,
  content_type: Schema.String,
  /** Lower-case hex. */
  sha256: Schema.String
})
export type FileInfo = typeof FileInfo.Type

/** An upload row. Its id is also the storage key of its content: names are metadata only. */
export const UploadedFile = Schema.Struct({
  ...FileInfo.fields,
  submission_id: Schema.String,
  /** The slug of the file field. */
  field: Schema.String,
  state: FileState,
  created_at: Schema.Number
})
export type UploadedFile = typeof UploadedFile.Type

export const fileInfoOf = (file: UploadedFile): FileInfo => ({
  id: file.id,
  name: file.name,
  size: file.size,
  content_type: file.content_type,
  sha256: file.sha256
})

/** The `files` of an answer: by field slug, the uploads its value lists (a draft: every stored upload of the field). */
export const FilesBySlug = Schema.Record(Schema.String, Schema.Array(FileInfo))
export type FilesBySlug = typeof FilesBySlug.Type

/** `files` grouped by field, in the order given; `keep` (when given) decides which of them are listed. */
export const filesBySlug = (files: ReadonlyArray<UploadedFile>, keep?: (file: UploadedFile) => boolean): FilesBySlug => {
  const out = Object.create(null) as Record<string, Array<FileInfo>>
  for (const file of files) {
    if (keep !== undefined && !keep(file)) continue
    ;(out[file.field] ??= []).push(fileInfoOf(file))
  }
  return out
}
