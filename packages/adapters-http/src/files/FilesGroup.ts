/** The `files` group: uploads to a public form's draft (a raw body, streamed) and their removal. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import {
  alwaysErrors,
  ApiConflict,
  ApiMalformedJson,
  ApiNotFound,
  ApiPayloadTooLarge,
  ApiRateLimited,
  ApiValidationFailed
} from "../http/ErrorEnvelope.js"
import { markPublic, operation } from "../http/openApiShape.js"
import { FileCreated } from "./wire.js"

const tokenAndSubmission = { token: Schema.String, submissionId: Schema.String }

export class FilesGroup extends HttpApiGroup.make("files")
  .add(
    HttpApiEndpoint.post("uploadFile", "/public/forms/:token/submissions/:submissionId/files", {
      params: tokenAndSubmission,
      query: { field: Schema.optional(Schema.String) },
      success: FileCreated,
      error: [ApiMalformedJson, ApiPayloadTooLarge, ApiNotFound, ApiRateLimited, ApiConflict, ApiValidationFailed, ...alwaysErrors]
    }).annotateMerge(operation(
      "Upload a file",
      "The file's bytes as the raw body (any media type), its name percent-encoded in `X-File-Name`, the file " +
        "field's slug in `field`. The type is read from the content. Policy `upload`."
    )),
    HttpApiEndpoint.delete("deleteFile", "/public/forms/:token/submissions/:submissionId/files/:fileId", {
      params: { ...tokenAndSubmission, fileId: Schema.String },
      success: HttpApiSchema.NoContent,
      error: [ApiNotFound, ApiRateLimited, ApiConflict, ...alwaysErrors]
    }).annotateMerge(operation("Remove an upload", "Removes an upload of a draft, its content with it. Policy `upload`."))
  )
  .pipe(markPublic)
  .annotateMerge(OpenApi.annotations({
    title: "Files",
    description: "Uploads of file fields: private, typed by their content, streamed to storage."
  }))
{}
