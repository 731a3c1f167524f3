/** Handlers of the `messages` group: the query or body (400, 415, 413), the `admin` limit (429), then `OrganiserMessages`. */
import { Effect, Result } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { type MessageFilter, messageKeyOf, MessageStatus, OrganiserMessages } from "@forms/domain"
import { Schema } from "effect"
import { Api } from "../Api.js"
import { apiError, wireErrors } from "../http/errorTable.js"
import { createdCodec, listBody, pageRequestOf } from "../http/paging.js"
import { HttpConfig } from "../HttpConfig.js"
import { bodyThenLimit, limitedActor } from "../organiser/organiserSteps.js"
import { toMessageDetailWire, toMessageWire } from "./wire.js"

const isStatus = Schema.is(MessageStatus)
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** `?status=` and `?submission_id=`: each absent, or given once with a valid value. */
export const messageFilterOf = (url: string): Result.Result<MessageFilter, "InvalidQuery"> => {
  const start = url.indexOf("?")
  const query = new URLSearchParams(start < 0 ? "" : url.slice(start + 1).split("#")[0])
  const statuses = query.getAll("status")
  const submissions = query.getAll("submission_id")
  if (statuses.length > 1 || submissions.length > 1) return Result.fail("InvalidQuery")
  const [status] = statuses
  const [submissionId] = submissions
  if (status !== undefined && !isStatus(status)) return Result.fail("InvalidQuery")
  if (submissionId !== undefined && !uuidPattern.test(submissionId)) return Result.fail("InvalidQuery")
  return Result.succeed({ status, submission_id: submissionId?.toLowerCase() })
}

export const MessagesHandlers = HttpApiBuilder.group(
  Api,
  "messages",
  Effect.fn(function*(handlers) {
    const messages = yield* OrganiserMessages
    const { maxBodyBytes } = yield* HttpConfig
    return handlers
      .handle("listMessages", ({ request }) =>
        Effect.gen(function*() {
          const page = pageRequestOf(request.url, createdCodec)
          const filter = messageFilterOf(request.url)
          if (Result.isFailure(page) || Result.isFailure(filter)) return yield* apiError("InvalidQuery")
          const actor = yield* limitedActor
          return listBody(yield* wireErrors(messages.list(actor, filter.success, page.success)), messageKeyOf, createdCodec, toMessageWire)
        }))
      .handle("getMessage", ({ params }) =>
        Effect.gen(function*() {
          const actor = yield* limitedActor
          return { data: toMessageDetailWire(yield* wireErrors(messages.get(actor, params.messageId))) }
        }))
      .handle("retryMessage", ({ params, request }) =>
        Effect.gen(function*() {
          const { actor } = yield* bodyThenLimit(request, maxBodyBytes)
          return { data: toMessageWire(yield* wireErrors(messages.retry(actor, params.messageId))) }
        }))
  })
)
