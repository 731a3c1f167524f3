/**
 * The conformance suite of the webhook store's audit entries (CONTRACT §12, §13): every change an organiser makes
 * to an endpoint, a retried delivery and a replay appear in the organisation's audit log, read through the
 * organiser ports; a refused change and a test delivery write none. Runs on the in-memory store (with the
 * organiser built over it), PGlite and PostgreSQL.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect, type Layer } from "effect"
import type { OrganiserAccess } from "../../organiser/catalog/OrganiserAccess.js"
import { OrganiserCatalog } from "../../organiser/catalog/OrganiserCatalog.js"
import { WebhookStore } from "../../webhooks/WebhookStore.js"
import { failureTag, first, newActor, t0 } from "../organiser/organiserTestSupport.js"

const input = { url: "https://hooks.example.com/audit", event_types: ["submission.submitted"], description: null }

export const webhookAuditConformance = (
  name: string,
  makeLayer: () => Layer.Layer<WebhookStore | OrganiserAccess | OrganiserCatalog, unknown>,
  options: { readonly timeout?: number } = {}
): void => {
  describe(name, () => {
    layer(makeLayer(), { timeout: options.timeout ?? 60_000, excludeTestServices: true })("webhook audit", (it) => {
      it.effect("endpoint changes, a delivery retried and a replay are audited in the actor's organisation", () =>
        Effect.gen(function*() {
          const store = yield* WebhookStore
          const catalog = yield* OrganiserCatalog
          const a = yield* newActor
          const b = yield* newActor
          const e = yield* store.createEndpoint(a, input, "whsec_AAAA", t0)
          yield* store.updateEndpoint(a, e.id, { description: "crm" }, t0 + 1)
          yield* store.rotateSecret(a, e.id, "whsec_BBBB", t0 + 2)
          const test = yield* store.queueTest(a, e.id, crypto.randomUUID(), t0 + 3)
          yield* store.retryDelivery(a, e.id, test.id, t0 + 4)
          expect(yield* store.replay(a, e.id, t0, t0 + 5)).toBe(0)
          // Refused: another organisation's endpoint; nothing is audited anywhere.
          expect(yield* failureTag(store.updateEndpoint(b, e.id, { enabled: false }, t0 + 6))).toBe("WebhookNotFound")
          expect(yield* failureTag(store.deleteEndpoint(b, e.id, t0 + 6))).toBe("WebhookNotFound")
          yield* store.deleteEndpoint(a, e.id, t0 + 7)
          const entries = (yield* catalog.listAudit(a.organisation_id, first())).items
          expect(entries.map((x) => [x.action, x.resource_type, x.resource_id, x.at, x.api_key_id])).toEqual([
            ["webhook.deleted", "webhook", e.id, t0 + 7, a.api_key_id],
            ["webhook.replayed", "webhook", e.id, t0 + 5, a.api_key_id],
            ["webhook_delivery.retried", "webhook_delivery", test.id, t0 + 4, a.api_key_id],
            ["webhook.secret_rotated", "webhook", e.id, t0 + 2, a.api_key_id],
            ["webhook.updated", "webhook", e.id, t0 + 1, a.api_key_id],
            ["webhook.created", "webhook", e.id, t0, a.api_key_id]
          ])
          expect((yield* catalog.listAudit(b.organisation_id, first())).items).toEqual([])
        }))
    })
  })
}
