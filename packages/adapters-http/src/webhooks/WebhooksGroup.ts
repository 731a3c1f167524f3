/** The `webhooks` group of the organiser API: webhook endpoints, their deliveries, tests and replays, behind the bearer key. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import {
  ApiConflict,
  ApiInternal,
  ApiMalformedJson,
  ApiNotFound,
  ApiRateLimited,
  ApiUnavailable,
  requestShapeErrors
} from "../http/ErrorEnvelope.js"
import {
  DeliveryEnvelope,
  DeliveryList,
  ReplayBody,
  ReplayQueuedEnvelope,
  SecretEnvelope,
  TestQueuedEnvelope,
  WebhookBody,
  WebhookCreatedEnvelope,
  WebhookEnvelope,
  WebhookList,
  WebhookPatchBody
} from "./wire.js"
import { OrganiserAuth } from "../organiser/OrganiserAuth.js"

const webhookId = { webhookId: Schema.String }
const deliveryId = { webhookId: Schema.String, deliveryId: Schema.String }
const always = [ApiRateLimited, ApiInternal, ApiUnavailable] as const
const read = [ApiNotFound, ...always] as const
const write = [...requestShapeErrors, ApiNotFound, ApiConflict, ...always] as const
const listed = [ApiMalformedJson, ApiNotFound, ...always] as const
const doc = (summary: string, identifier: string) => OpenApi.annotations({ summary, identifier })
const pagingNote = " Query: `limit` 1–200 (default 50), `cursor` (the `next_cursor` of the page before)."

export class WebhooksGroup extends HttpApiGroup.make("webhooks")
  .add(
    HttpApiEndpoint.get("listWebhooks", "/admin/webhooks", { success: WebhookList, error: listed })
      .annotateMerge(doc("List webhook endpoints, newest first." + pagingNote, "adminListWebhooks")),
    HttpApiEndpoint.post("createWebhook", "/admin/webhooks", {
      payload: WebhookBody,
      success: WebhookCreatedEnvelope.pipe(HttpApiSchema.status(201)),
      error: write
    }).annotateMerge(doc(
      "Subscribe an https endpoint to event types (`submission.submitted`, `section.submitted`, `submission.erased`, " +
        "`section.locked`, `section.reopened`, `place.promoted`, `place.cancelled`, or `[\"*\"]`). The answer carries `secret` (`whsec_…`), shown this once.",
      "adminCreateWebhook"
    )),
    HttpApiEndpoint.get("getWebhook", "/admin/webhooks/:webhookId", { params: webhookId, success: WebhookEnvelope, error: read })
      .annotateMerge(doc("Get a webhook endpoint", "adminGetWebhook")),
    HttpApiEndpoint.patch("updateWebhook", "/admin/webhooks/:webhookId", {
      params: webhookId,
      payload: WebhookPatchBody,
      success: WebhookEnvelope,
      error: write
    }).annotateMerge(doc("Change, disable or enable an endpoint (enabling makes its queued deliveries due at once)", "adminUpdateWebhook")),
    HttpApiEndpoint.delete("deleteWebhook", "/admin/webhooks/:webhookId", {
      params: webhookId,
      success: HttpApiSchema.NoContent,
      error: write
    }).annotateMerge(doc("Delete an endpoint and its deliveries", "adminDeleteWebhook")),
    HttpApiEndpoint.post("rotateWebhookSecret", "/admin/webhooks/:webhookId/rotate-secret", {
      params: webhookId,
      success: SecretEnvelope,
      error: write
    }).annotateMerge(doc("A new secret, shown this once; the old one signs too for 24 hours", "adminRotateWebhookSecret")),
    HttpApiEndpoint.post("testWebhook", "/admin/webhooks/:webhookId/test", {
      params: webhookId,
      success: TestQueuedEnvelope.pipe(HttpApiSchema.status(202)),
      error: write
    }).annotateMerge(doc("Queue a `webhook.test` message for this endpoint", "adminTestWebhook")),
    HttpApiEndpoint.get("listWebhookDeliveries", "/admin/webhooks/:webhookId/deliveries", {
      params: webhookId,
      success: DeliveryList,
      error: listed
    }).annotateMerge(doc(
      "An endpoint's deliveries with their attempts, newest first. Query: `status` (pending, delivered, failed)." + pagingNote,
      "adminListWebhookDeliveries"
    )),
    HttpApiEndpoint.post("retryWebhookDelivery", "/admin/webhooks/:webhookId/deliveries/:deliveryId/retry", {
      params: deliveryId,
      success: DeliveryEnvelope.pipe(HttpApiSchema.status(202)),
      error: write
    }).annotateMerge(doc("Make a delivery due again at once (a delivered one: a replay), with a new round of attempts", "adminRetryWebhookDelivery")),
    HttpApiEndpoint.post("replayWebhook", "/admin/webhooks/:webhookId/replay", {
      params: webhookId,
      payload: ReplayBody,
      success: ReplayQueuedEnvelope.pipe(HttpApiSchema.status(202)),
      error: write
    }).annotateMerge(doc("Send every event of the endpoint's types since `since` again (erased ones skipped)", "adminReplayWebhook"))
  )
  .middleware(OrganiserAuth)
  .annotateMerge(OpenApi.annotations({
    title: "Webhooks",
    description: "Webhook endpoints (Standard Webhooks): signed with `webhook-id`, `webhook-timestamp` and " +
      "`webhook-signature`, retried on `WEBHOOK_RETRY_SCHEDULE`, replayable. Checks run in the order of the organiser API."
  }))
{}
