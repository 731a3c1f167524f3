/** Handlers of the `filesAdmin` group: the download is a raw stream with the headers that keep it from being rendered. */
import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Files } from "@forms/domain"
import { Api } from "../Api.js"
import { wireErrors } from "../http/errorTable.js"
import { limitedActor } from "../organiser/organiserSteps.js"
import { attachment } from "./contentDisposition.js"

export const FilesAdminHandlers = HttpApiBuilder.group(
  Api,
  "filesAdmin",
  Effect.fn(function*(handlers) {
    const files = yield* Files
    return handlers.handle("downloadFile", ({ params }) =>
      Effect.gen(function*() {
        const actor = yield* limitedActor
        const { file, content } = yield* wireErrors(files.download(actor, params.fileId))
        // A raw stream: HttpApi's streams fix one media type and no headers.
        return HttpServerResponse.stream(content, {
          contentType: "application/octet-stream",
          contentLength: file.size,
          headers: {
            "content-disposition": attachment(file.name),
            "x-content-type-options": "nosniff",
            "content-security-policy": "sandbox",
            "cache-control": "no-store"
          }
        })
      }))
  })
)
