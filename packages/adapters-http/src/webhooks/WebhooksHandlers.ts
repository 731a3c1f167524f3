/**
 * Handlers of the `webhooks` group: after the key (middleware), body (415, 413, 400) or query (400), the
 * `admin` limit (429), then the domain's `Webhooks` use cases (404, 422). Secrets and test event ids are
 * generated here (the domain has no randomness).
 */
import { Effect, Result } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { type DeliveryStatus, deliveryKeyOf, webhookKeyOf, Webhooks } from "@forms/domain"
import { randomBytes, randomUUID } from "node:crypto"
import { Api } from "../Api.js"
import { apiError, type DomainError, fromDomainError } from "../http/errorTable.js"
import { HttpConfig } from "../HttpConfig.js"
import { toDeliveryWire, toWebhookWire, toWebhookWithSecretWire } from "./wire.js"
import { bodyThenLimit, limitedActor } from "../organiser/organiserSteps.js"
import { createdCodec, listBody, pageRequestOf } from "../http/paging.js"

const json = (data: unknown, status = 200) => HttpServerResponse.jsonUnsafe({ data }, { status })
const domain = <A, E extends DomainError, R>(effect: Effect.Effect<A, E, R>) => Effect.mapError(effect, fromDomainError)

/** `whsec_` + standard padded base64 of 32 random bytes (CONTRACT §13). */
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
    const config = yield* HttpConfig

    return handlers
      .handleRaw("listWebhooks", ({ request }) =>
        Effect.gen(function*() {
          const page = pageRequestOf(request.url, createdCodec)
          if (Result.isFailure(page)) return yield* apiError("InvalidQuery")
          const actor = yield* limitedActor
          const result = yield* domain(webhooks.list(actor, page.success))
          return HttpServerResponse.jsonUnsafe(listBody(result, webhookKeyOf, createdCodec, toWebhookWire))
        }))
      .handleRaw("createWebhook", ({ request }) =>
        Effect.gen(function*() {
          const { actor, body } = yield* bodyThenLimit(request, config.maxBodyBytes)
          return json(toWebhookWithSecretWire(yield* domain(webhooks.create(actor, body, newWebhookSecret()))), 201)
        }))
      .handleRaw("getWebhook", ({ params }) =>
        Effect.gen(function*() {
          const actor = yield* limitedActor
          return json(toWebhookWire(yield* domain(webhooks.get(actor, params.webhookId))))
        }))
      .handleRaw("updateWebhook", ({ params, request }) =>
        Effect.gen(function*() {
          const { actor, body } = yield* bodyThenLimit(request, config.maxBodyBytes)
          return json(toWebhookWire(yield* domain(webhooks.update(actor, params.webhookId, body))))
        }))
      .handleRaw("deleteWebhook", ({ params }) =>
        Effect.gen(function*() {
          const actor = yield* limitedActor
          yield* domain(webhooks.remove(actor, params.webhookId))
          return HttpServerResponse.empty({ status: 204 })
        }))
      .handleRaw("rotateWebhookSecret", ({ params, request }) =>
        Effect.gen(function*() {
          const { actor } = yield* bodyThenLimit(request, config.maxBodyBytes)
          return json({ secret: yield* domain(webhooks.rotateSecret(actor, params.webhookId, newWebhookSecret())) })
        }))
      .handleRaw("testWebhook", ({ params, request }) =>
        Effect.gen(function*() {
          const { actor } = yield* bodyThenLimit(request, config.maxBodyBytes)
          return json({ event_id: yield* domain(webhooks.test(actor, params.webhookId, randomUUID())) }, 202)
        }))
      .handleRaw("listWebhookDeliveries", ({ params, request }) =>
        Effect.gen(function*() {
          const page = pageRequestOf(request.url, createdCodec)
          const status = statusOf(request.url)
          if (Result.isFailure(page) || Result.isFailure(status)) return yield* apiError("InvalidQuery")
          const actor = yield* limitedActor
          const result = yield* domain(webhooks.deliveries(actor, params.webhookId, status.success, page.success))
          return HttpServerResponse.jsonUnsafe(listBody(result, deliveryKeyOf, createdCodec, toDeliveryWire))
        }))
      .handleRaw("retryWebhookDelivery", ({ params, request }) =>
        Effect.gen(function*() {
          const { actor } = yield* bodyThenLimit(request, config.maxBodyBytes)
          return json(toDeliveryWire(yield* domain(webhooks.retryDelivery(actor, params.webhookId, params.deliveryId))), 202)
        }))
      .handleRaw("replayWebhook", ({ params, request }) =>
        Effect.gen(function*() {
          const { actor, body } = yield* bodyThenLimit(request, config.maxBodyBytes)
          return json({ queued: yield* domain(webhooks.replay(actor, params.webhookId, body)) }, 202)
        }))
  })
)
