/**
 * Handlers of the `webhooks` group: after the key, the body or query (415, 413, 400), then the `admin` limit
 * (429), then only the domain's `Webhooks` use cases; they make the secrets and the test events' ids.
 */
import { randomBytes, randomUUID } from "node:crypto"
import { Effect, Result } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { type DeliveryStatus, deliveryKeyOf, webhookKeyOf, Webhooks } from "@forms/domain"
import { Api } from "../Api.js"
import { apiError, wireErrors } from "../http/errorTable.js"
import { createdCodec, listBody, pageRequestOf } from "../http/paging.js"
import { HttpConfig } from "../HttpConfig.js"
import { bodyThenLimit, limitedActor, pageThenLimit } from "../organiser/organiserSteps.js"
import { toDeliveryWire, toWebhookWire, toWebhookWithSecretWire } from "./wire.js"

/** `whsec_` + standard padded base64 of 32 random bytes. */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString("base64")}`

/** `?status=` of the deliveries list: absent, or exactly one of the three. */
const statusOf = (url: string): Result.Result<DeliveryStatus | undefined, "InvalidQuery"> => {
  const start = url.indexOf("?")
  const values = new URLSearchParams(start < 0 ? "" : url.slice(start + 1).split("#")[0]).getAll("status")
  if (values.length === 0) return Result.succeed(undefined)
  const [value] = values
  return values.length === 1 && (value === "pending" || value === "delivered" || value === "failed")
    ? Result.succeed(value)
    : Result.fail("InvalidQuery")
}

export const WebhooksHandlers = HttpApiBuilder.group(
  Api,
  "webhooks",
  Effect.fn(function*(handlers) {
    const webhooks = yield* Webhooks
    const { maxBodyBytes } = yield* HttpConfig

    return handlers
      .handle("listWebhooks", ({ request }) =>
        Effect.gen(function*() {
          const { actor, page } = yield* pageThenLimit(request, createdCodec)
          return listBody(yield* wireErrors(webhooks.list(actor, page)), webhookKeyOf, createdCodec, toWebhookWire)
        }))
      .handleRaw("createWebhook", ({ request }) =>
        Effect.gen(function*() {
          const { actor, body } = yield* bodyThenLimit(request, maxBodyBytes)
          return { data: toWebhookWithSecretWire(yield* wireErrors(webhooks.create(actor, body, newWebhookSecret()))) }
        }))
      .handle("getWebhook", ({ params }) =>
        Effect.gen(function*() {
          const actor = yield* limitedActor
          return { data: toWebhookWire(yield* wireErrors(webhooks.get(actor, params.webhookId))) }
        }))
      .handleRaw("updateWebhook", ({ params, request }) =>
        Effect.gen(function*() {
          const { actor, body } = yield* bodyThenLimit(request, maxBodyBytes)
          return { data: toWebhookWire(yield* wireErrors(webhooks.update(actor, params.webhookId, body))) }
        }))
      .handle("deleteWebhook", ({ params }) =>
        Effect.gen(function*() {
          const actor = yield* limitedActor
          yield* wireErrors(webhooks.remove(actor, params.webhookId))
        }))
      .handle("rotateWebhookSecret", ({ params, request }) =>
        Effect.gen(function*() {
          const { actor } = yield* bodyThenLimit(request, maxBodyBytes)
          return { data: { secret: yield* wireErrors(webhooks.rotateSecret(actor, params.webhookId, newWebhookSecret())) } }
        }))
      .handle("testWebhook", ({ params, request }) =>
        Effect.gen(function*() {
          const { actor } = yield* bodyThenLimit(request, maxBodyBytes)
          return { data: { event_id: yield* wireErrors(webhooks.test(actor, params.webhookId, randomUUID())) } }
        }))
      .handle("listWebhookDeliveries", ({ params, request }) =>
        Effect.gen(function*() {
          const page = pageRequestOf(request.url, createdCodec)
          const status = statusOf(request.url)
          if (Result.isFailure(page) || Result.isFailure(status)) return yield* apiError("InvalidQuery")
          const actor = yield* limitedActor
          const result = yield* wireErrors(webhooks.deliveries(actor, params.webhookId, status.success, page.success))
          return listBody(result, deliveryKeyOf, createdCodec, toDeliveryWire)
        }))
      .handle("retryWebhookDelivery", ({ params, request }) =>
        Effect.gen(function*() {
          const { actor } = yield* bodyThenLimit(request, maxBodyBytes)
          return { data: toDeliveryWire(yield* wireErrors(webhooks.retryDelivery(actor, params.webhookId, params.deliveryId))) }
        }))
      .handleRaw("replayWebhook", ({ params, request }) =>
        Effect.gen(function*() {
          const { actor, body } = yield* bodyThenLimit(request, maxBodyBytes)
          return { data: { queued: yield* wireErrors(webhooks.replay(actor, params.webhookId, body)) } }
        }))
  })
)
