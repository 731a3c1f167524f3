/**
 * Conformance of the webhook fan-out with the Outbox (CONTRACT §13): an event handled goes to the subscribed
 * endpoints created before it was recorded, and a replay reaches back further, to events recorded since its
 * `since` that are handled only after the replay. Every adapter (in memory, PGlite, PostgreSQL) must pass it.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, type Effect as E, type Layer } from "effect"
import { Outbox } from "../../events/Outbox.js"
import type { OrganiserAccess } from "../../organiser/catalog/OrganiserAccess.js"
import { WebhookStore } from "../../webhooks/WebhookStore.js"
import { first, newActor, t0 } from "../organiser/organiserTestSupport.js"

/** What the suite needs besides the ports: an outbox event recorded at a time of its choosing, not yet handled. */
export class WebhookEventFixture extends Context.Service<WebhookEventFixture, {
  /** A pending `submission.submitted` event of the organisation, recorded (and due) at `at`; its id. */
  readonly record: (organisationId: string, at: number) => E.Effect<string>
}>()("@forms/domain/testing/WebhookEventFixture") {}

const input = { url: "https://hooks.example.com/in", event_types: ["submission.submitted"], description: null }

export const webhookFanOutConformance = (
  name: string,
  makeLayer: () => Layer.Layer<WebhookStore | OrganiserAccess | Outbox | WebhookEventFixture, unknown>,
  options: { readonly timeout?: number } = {}
): void => {
  describe(name, () => {
    layer(makeLayer(), { timeout: options.timeout ?? 60_000, excludeTestServices: true })("webhook fan-out", (it) => {
      it.effect("an event handled after a replay reaching back to it goes to the endpoint, created after it or not", () =>
        Effect.gen(function*() {
          const store = yield* WebhookStore
          const actor = yield* newActor
          const eventId = yield* (yield* WebhookEventFixture).record(actor.organisation_id, t0)
          const replayed = yield* store.createEndpoint(actor, input, "whsec_AAAA", t0 + 1_000)
          const later = yield* store.createEndpoint(actor, input, "whsec_AAAA", t0 + 1_000)
          const earlier = yield* store.createEndpoint(actor, input, "whsec_AAAA", t0 - 1_000)
          // Not handled yet: nothing to queue now.
          expect(yield* store.replay(actor, replayed.id, t0 - 500, t0 + 2_000)).toBe(0)
          yield* (yield* Outbox).markDelivered(eventId)
          const deliveries = (endpointId: string) =>
            Effect.map(store.listDeliveries(actor.organisation_id, endpointId, undefined, first()), (page) => page.items.map((d) => d.event_id))
          expect(yield* deliveries(replayed.id)).toEqual([eventId])
          expect(yield* deliveries(earlier.id)).toEqual([eventId])
          // Created after the event and never replayed: not its event.
          expect(yield* deliveries(later.id)).toEqual([])
        }))

      it.effect("a replay reaching back to a time after the event leaves it out", () =>
        Effect.gen(function*() {
          const store = yield* WebhookStore
          const actor = yield* newActor
          const eventId = yield* (yield* WebhookEventFixture).record(actor.organisation_id, t0)
          const endpoint = yield* store.createEndpoint(actor, input, "whsec_AAAA", t0 + 1_000)
          yield* store.replay(actor, endpoint.id, t0 + 500, t0 + 2_000)
          yield* (yield* Outbox).markDelivered(eventId)
          const page = yield* store.listDeliveries(actor.organisation_id, endpoint.id, undefined, first())
          expect(page.items).toEqual([])
        }))
    })
  })
}
