/** The wire shapes of uploads: the domain's `FileInfo`, in the envelope. */
import { Schema } from "effect"
import { HttpApiSchema } from "effect/http-api"
import { FileInfo } from "@forms/domain"

export class FileCreated extends Schema.Class<FileCreated>("FileCreated")({ data: FileInfo }, {
  httpApiStatus: 201,
  description: "The stored upload: its id (to put in the field's value), name, size, type and SHA-256."
}) {}

/** The content of an upload, streamed as stored: never rendered (`Content-Security-Policy: sandbox`, `nosniff`). */
export const FileContent = Schema.String.annotate({
  description: "The upload's bytes as stored, with `Content-Disposition: attachment` and its name (RFC 6266 `filename*`)"
}).pipe(HttpApiSchema.asText({ contentType: "application/octet-stream" }))
