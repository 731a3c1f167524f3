/** The `messages` group of the organiser API: the messages of the key's organisation, one with its body, a retry. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { ApiConflict, ApiInternal, ApiMalformedJson, ApiNotFound, ApiRateLimited, ApiUnavailable, requestShapeErrors } from "../http/ErrorEnvelope.js"
import { OrganiserAuth } from "../organiser/OrganiserAuth.js"
import { operationDoc, pagingNote } from "../organiser/organiserEndpoints.js"
import { MessageDetailEnvelope, MessageEnvelope, MessageList } from "./wire.js"

const messageId = { messageId: Schema.String }
const always = [ApiRateLimited, ApiInternal, ApiUnavailable] as const

export class MessagesGroup extends HttpApiGroup.make("messages")
  .add(
    HttpApiEndpoint.get("listMessages", "/admin/messages", { success: MessageList, error: [ApiMalformedJson, ...always] })
      .annotateMerge(operationDoc(
        "List messages, newest first",
        "adminListMessages",
        "Query: `status` (held, pending, sent, failed), `submission_id`; another status or a malformed id → 400 INVALID_QUERY." +
          pagingNote
      )),
    HttpApiEndpoint.get("getMessage", "/admin/messages/:messageId", {
      params: messageId,
      success: MessageDetailEnvelope,
      error: [ApiNotFound, ...always]
    }).annotateMerge(operationDoc("Get a message with its body (links shown as `[link]`)", "adminGetMessage", "404 MESSAGE_NOT_FOUND.")),
    HttpApiEndpoint.post("retryMessage", "/admin/messages/:messageId/retry", {
      params: messageId,
      success: MessageEnvelope.pipe(HttpApiSchema.status(202)),
      error: [...requestShapeErrors, ApiNotFound, ApiConflict, ...always]
    }).annotateMerge(operationDoc(
      "Queue a failed or held message again",
      "adminRetryMessage",
      "A new round of attempts (held again while no mail server is configured); audit `message.retried`. " +
        "409 MESSAGE_NOT_RETRYABLE for a pending or sent one."
    ))
  )
  .middleware(OrganiserAuth)
  .annotateMerge(OpenApi.annotations({
    title: "Organiser: messages",
    description: "Emails of the key's organisation (confirmations, notices, resume links, …): key (401) → query (400) → " +
      "the `admin` limit (429) → the message (404). Bodies and addresses never appear in logs."
  }))
{}
