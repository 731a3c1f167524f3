/** The `filesAdmin` group: an organiser downloads an upload of the key's organisation. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { ApiInternal, ApiNotFound, ApiRateLimited, ApiUnavailable } from "../http/ErrorEnvelope.js"
import { OrganiserAuth } from "../organiser/OrganiserAuth.js"
import { FileContent } from "./wire.js"

export class FilesAdminGroup extends HttpApiGroup.make("filesAdmin")
  .add(
    HttpApiEndpoint.get("downloadFile", "/admin/files/:fileId", {
      params: { fileId: Schema.String },
      success: FileContent,
      error: [ApiNotFound, ApiRateLimited, ApiInternal, ApiUnavailable]
    }).annotateMerge(OpenApi.annotations({
      summary: "Download an upload",
      identifier: "adminDownloadFile",
      description: "Streams the content as stored, as an attachment never rendered by a browser " +
        "(`X-Content-Type-Options: nosniff`, `Content-Security-Policy: sandbox`, `Cache-Control: no-store`); " +
        "404 FILE_NOT_FOUND for an unknown id or another organisation's upload."
    }))
  )
  .middleware(OrganiserAuth)
  .annotateMerge(OpenApi.annotations({
    title: "Organiser: files",
    description: "Uploads of the key's organisation: key (401) → the `admin` limit (429) → the file (404)."
  }))
{}
