/** Handlers of the `files` group: the body goes to the domain as a stream, never read whole here. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Files } from "@forms/domain"
import { Api } from "../Api.js"
import { clientOf } from "../http/clientIp.js"
import { limitedAnswer } from "../http/rateLimitHeaders.js"
import { refuseUnread } from "../http/readJsonBody.js"
import { HttpConfig } from "../HttpConfig.js"
import { fileNameOf, uploadBodyOf } from "./uploadBody.js"
import { FileCreated } from "./wire.js"

export const FilesHandlers = HttpApiBuilder.group(
  Api,
  "files",
  Effect.fn(function*(handlers) {
    const files = yield* Files
    const config = yield* HttpConfig
    return handlers
      .handleRaw("uploadFile", ({ params, query, request }) =>
        limitedAnswer(files.upload(params.token, params.submissionId, {
          field: query.field,
          name: fileNameOf(request.headers["x-file-name"]),
          body: uploadBodyOf(request)
        }, clientOf(request, config.trustProxyHops, config.exemptNetworks))).pipe(
          // A refused upload is not read further: the connection is closed after the answer.
          Effect.catchIf((error) => error.error.code === "FILE_TOO_LARGE", refuseUnread),
          Effect.map((file) => new FileCreated({ data: file }))
        ))
      .handle("deleteFile", ({ params, request }) =>
        limitedAnswer(files.remove(
          params.token,
          params.submissionId,
          params.fileId,
          clientOf(request, config.trustProxyHops, config.exemptNetworks)
        )))
  })
)
