/**
 * The organiser's webhook use cases (CONTRACT §13) after authentication, the request shape and the `admin`
 * limit: ids in the path (404) → body (422). Every call is scoped by the actor's organisation. Secrets and
 * event ids come from the caller (the domain has no randomness).
 */
import { Clock, Context, Effect, Layer, Option } from "effect"
import { type Body, checked } from "../rules/bodyChecks.js"
import type { ValidationFailed } from "../rules/errors.js"

import type { Actor } from "../shared/Actor.js"
import type { Unavailable } from "../shared/errors.js"
import type { CreatedKey, Page, PageRequest } from "../shared/paging.js"
import { DeliveryNotFound, WebhookNotFound } from "./errors.js"
import { endpointInput, endpointPatch, replaySince } from "./webhookInput.js"
import type { DeliveryStatus, WebhookDelivery, WebhookEndpoint, WebhookEndpointWithSecret } from "./WebhookModel.js"
import { WebhookSettings } from "./WebhookSettings.js"
import { WebhookStore } from "./WebhookStore.js"

type E<A, X = never> = Effect.Effect<A, X | Unavailable>

export class Webhooks extends Context.Service<Webhooks, {
  readonly list: (actor: Actor, page: PageRequest<CreatedKey>) => E<Page<WebhookEndpoint>>
  readonly get: (actor: Actor, id: string) => E<WebhookEndpoint, WebhookNotFound>
  /** `secret`: `whsec_` + base64 of 32 random bytes, from the caller. */
  readonly create: (actor: Actor, body: Body, secret: string) => E<WebhookEndpointWithSecret, ValidationFailed>
  readonly update: (actor: Actor, id: string, body: Body) => E<WebhookEndpoint, WebhookNotFound | ValidationFailed>
  readonly remove: (actor: Actor, id: string) => E<void, WebhookNotFound>
  readonly rotateSecret: (actor: Actor, id: string, secret: string) => E<string, WebhookNotFound>
  /** Queues a `webhook.test` message with event id `eventId` for this endpoint. */
  readonly test: (actor: Actor, id: string, eventId: string) => E<string, WebhookNotFound>
  readonly deliveries: (
    actor: Actor,
    id: string,
    status: DeliveryStatus | undefined,
    page: PageRequest<CreatedKey>
  ) => E<Page<WebhookDelivery>, WebhookNotFound>
  readonly retryDelivery: (actor: Actor, id: string, deliveryId: string) => E<WebhookDelivery, WebhookNotFound | DeliveryNotFound>
  /** Answers how many events were queued. */
  readonly replay: (actor: Actor, id: string, body: Body) => E<number, WebhookNotFound | ValidationFailed>
}>()("@forms/domain/Webhooks") {}

export const deliveryKeyOf = (d: WebhookDelivery): CreatedKey => ({ created_at: d.created_at, id: d.id })
export const webhookKeyOf = (w: WebhookEndpoint): CreatedKey => ({ created_at: w.created_at, id: w.id })

export const makeWebhooks = Effect.gen(function*() {
  const store = yield* WebhookStore
  const settings = yield* WebhookSettings
  const now = Clock.currentTimeMillis

  const requireEndpoint = (actor: Actor, id: string) =>
    store.findEndpoint(actor.organisation_id, id).pipe(Effect.flatMap(Effect.fromOption(() => new WebhookNotFound())))

  return Webhooks.of({
    list: Effect.fn("Webhooks.list")(function*(actor, page) {
      return yield* store.listEndpoints(actor.organisation_id, page)
    }),
    get: Effect.fn("Webhooks.get")(function*(actor: Actor, id: string) {
      return yield* requireEndpoint(actor, id)
    }),
    create: Effect.fn("Webhooks.create")(function*(actor: Actor, body: Body, secret: string) {
      const input = yield* checked(endpointInput(body, settings))
      const endpoint = yield* store.createEndpoint(actor, input, secret, yield* now)
      return { ...endpoint, secret }
    }),
    update: Effect.fn("Webhooks.update")(function*(actor: Actor, id: string, body: Body) {
      yield* requireEndpoint(actor, id)
      const patch = yield* checked(endpointPatch(body, settings))
      return yield* store.updateEndpoint(actor, id, patch, yield* now)
    }),
    remove: Effect.fn("Webhooks.remove")(function*(actor: Actor, id: string) {
      return yield* store.deleteEndpoint(actor, id, yield* now)
    }),
    rotateSecret: Effect.fn("Webhooks.rotateSecret")(function*(actor: Actor, id: string, secret: string) {
      yield* store.rotateSecret(actor, id, secret, yield* now)
      return secret
    }),
    test: Effect.fn("Webhooks.test")(function*(actor: Actor, id: string, eventId: string) {
      const delivery = yield* store.queueTest(actor, id, eventId, yield* now)
      return delivery.event_id
    }),
    deliveries: Effect.fn("Webhooks.deliveries")(function*(actor, id, status, page) {
      return yield* store.listDeliveries(actor.organisation_id, id, status, page)
    }),
    retryDelivery: Effect.fn("Webhooks.retryDelivery")(function*(actor: Actor, id: string, deliveryId: string) {
      const found = yield* store.retryDelivery(actor, id, deliveryId, yield* now)
      if (Option.isNone(found)) return yield* new DeliveryNotFound()
      return found.value
    }),
    replay: Effect.fn("Webhooks.replay")(function*(actor: Actor, id: string, body: Body) {
      yield* requireEndpoint(actor, id)
      const since = yield* checked(replaySince(body))
      return yield* store.replay(actor, id, since, yield* now)
    })
  })
})

/** The webhook use cases; needs WebhookStore and WebhookSettings. */
export const WebhooksLive = { layer: Layer.effect(Webhooks, makeWebhooks) } as const
