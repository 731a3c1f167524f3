/**
 * The conformance suite of the WebhookStore port (CONTRACT §13): endpoints scoped by organisation, the
 * delivery state machine (claim → outcome, lease, interrupted attempts, rounds), disabled endpoints, and
 * disjoint concurrent claims. Every adapter (in memory, PGlite, PostgreSQL) must pass it unchanged.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import type { OrganiserAccess } from "../../organiser/catalog/OrganiserAccess.js"
import type { Actor } from "../../shared/Actor.js"
import { type AttemptOutcome, type ClaimedDelivery, interruptedDeliveryError } from "../../webhooks/WebhookModel.js"
import { WebhookStore } from "../../webhooks/WebhookStore.js"
import { failureTag, first, newActor, t0 } from "../organiser/organiserTestSupport.js"

const policy = { leaseMs: 60_000, maxAttempts: 3, endpointConcurrency: 1_000, organisationConcurrency: 1_000 }
/** Small caps: 2 attempts in flight per endpoint, 3 per organisation. */
const capped = { ...policy, endpointConcurrency: 2, organisationConcurrency: 3 }
const input = { url: "https://hooks.example.com/in", event_types: ["submission.submitted"], description: null }
let counter = 0
const eventId = () => `00000000-0000-4000-9abc-${(Date.now() % 1e6 * 1000 + counter++).toString(16).padStart(12, "0")}`
const ok = (at: number): AttemptOutcome => ({
  attempt: { at, status_code: 200, error: null, duration_ms: 5 }, status: "delivered", next_attempt_at: null, disable_reason: null
})
const failed = (at: number, next: number | null, disable: string | null = null): AttemptOutcome => ({
  attempt: { at, status_code: 500, error: "HTTP 500", duration_ms: 5 },
  status: next === null ? "failed" : "pending",
  next_attempt_at: next,
  disable_reason: disable
})

export const webhookStoreConformance = (
  name: string,
  makeLayer: () => Layer.Layer<WebhookStore | OrganiserAccess, unknown>,
  options: { readonly timeout?: number } = {}
): void => {
  describe(name, () => {
    layer(makeLayer(), { timeout: options.timeout ?? 60_000, excludeTestServices: true })("webhook store", (it) => {
      const claimOwn = (endpointIds: ReadonlyArray<string>, at: number, limit = 200, claimPolicy = policy) =>
        Effect.map(Effect.flatMap(WebhookStore, (s) => s.claimDeliveries(limit, claimPolicy, at)), (claimed) =>
          claimed.filter((c) => endpointIds.includes(c.endpoint_id)))
      const queueTests = (actor: Actor, endpointId: string, n: number, at: number) =>
        Effect.flatMap(WebhookStore, (store) =>
          Effect.forEach(Array.from({ length: n }, () => eventId()), (id) => store.queueTest(actor, endpointId, id, at)))
      const countBy = (claimed: ReadonlyArray<ClaimedDelivery>, key: (c: ClaimedDelivery) => string) => {
        const counts: Record<string, number> = {}
        for (const c of claimed) counts[key(c)] = (counts[key(c)] ?? 0) + 1
        return counts
      }

      it.effect("endpoints are scoped by organisation; patch, disable, enable, rotate, delete", () =>
        Effect.gen(function*() {
          const store = yield* WebhookStore
          const a = yield* newActor
          const b = yield* newActor
          const e = yield* store.createEndpoint(a, input, "whsec_AAAA", t0)
          expect(e).toEqual({ id: e.id, ...input, event_types: ["submission.submitted"], enabled: true, disabled_reason: null, created_at: t0 })
          expect(yield* store.findEndpoint(b.organisation_id, e.id)).toEqual(Option.none())
          expect((yield* store.listEndpoints(a.organisation_id, first())).items.map((x) => x.id)).toEqual([e.id])
          expect((yield* store.listEndpoints(b.organisation_id, first())).items).toEqual([])
          expect(yield* failureTag(store.updateEndpoint(b, e.id, { enabled: false }, t0))).toBe("WebhookNotFound")
          expect(yield* failureTag(store.deleteEndpoint(b, e.id, t0))).toBe("WebhookNotFound")
          expect(yield* failureTag(store.rotateSecret(b, e.id, "whsec_BBBB", t0))).toBe("WebhookNotFound")
          const off = yield* store.updateEndpoint(a, e.id, { enabled: false, description: "crm" }, t0)
          expect(off).toMatchObject({ enabled: false, disabled_reason: "disabled by the organiser", description: "crm", url: input.url })
          const on = yield* store.updateEndpoint(a, e.id, { enabled: true, event_types: ["*"], description: null }, t0)
          expect(on).toMatchObject({ enabled: true, disabled_reason: null, event_types: ["*"], description: null })
          const second = yield* store.createEndpoint(a, input, "whsec_CCCC", t0 + 1)
          const page = yield* store.listEndpoints(a.organisation_id, { limit: 1, after: undefined })
          expect(page).toEqual({ items: [expect.objectContaining({ id: second.id })], more: true })
          const next = yield* store.listEndpoints(a.organisation_id, { limit: 1, after: { created_at: t0 + 1, id: second.id } })
          expect(next).toEqual({ items: [expect.objectContaining({ id: e.id })], more: false })
          yield* store.rotateSecret(a, e.id, "whsec_DDDD", t0 + 5)
          yield* store.queueTest(a, e.id, eventId(), t0 + 10)
          const [claimed] = yield* claimOwn([e.id], t0 + 10)
          expect(claimed).toMatchObject({ secret: "whsec_DDDD", previous_secret: "whsec_AAAA", secret_rotated_at: t0 + 5 })
          yield* store.deleteEndpoint(a, e.id, t0)
          yield* store.deleteEndpoint(a, second.id, t0)
          expect(yield* store.findEndpoint(a.organisation_id, e.id)).toEqual(Option.none())
          expect(yield* failureTag(store.listDeliveries(a.organisation_id, e.id, undefined, first()))).toBe("WebhookNotFound")
        }))

      it.effect("a claim leases a delivery and counts its attempt; only the outstanding attempt's outcome is recorded", () =>
        Effect.gen(function*() {
          const store = yield* WebhookStore
          const a = yield* newActor
          const e = yield* store.createEndpoint(a, input, "whsec_AAAA", t0)
          const id = eventId()
          const queued = yield* store.queueTest(a, e.id, id, t0)
          expect(queued).toMatchObject({ event_id: id, event_type: "webhook.test", status: "pending", attempts: [], next_attempt_at: t0 })
          const [claim] = yield* claimOwn([e.id], t0)
          expect(claim).toMatchObject({
            id: queued.id, event_id: id, payload: { webhook_id: e.id }, url: input.url, secret: "whsec_AAAA",
            attempt: 1, attempt_in_round: 1, organisation_id: a.organisation_id
          })
          expect(yield* claimOwn([e.id], t0 + 1000)).toEqual([])
          const c = claim as ClaimedDelivery
          yield* store.recordAttempt(c, failed(t0, t0 + 5000))
          yield* store.recordAttempt(c, ok(t0)) // the same attempt again: ignored
          expect(yield* claimOwn([e.id], t0 + 4999)).toEqual([])
          const [again] = yield* claimOwn([e.id], t0 + 5000)
          expect(again).toMatchObject({ attempt: 2, attempt_in_round: 2 })
          yield* store.recordAttempt(again as ClaimedDelivery, ok(t0 + 5000))
          const list = yield* store.listDeliveries(a.organisation_id, e.id, undefined, first())
          expect(list.items).toEqual([{
            ...queued,
            status: "delivered",
            next_attempt_at: null,
            attempts: [failed(t0, 1).attempt, ok(t0 + 5000).attempt]
          }])
          expect((yield* store.listDeliveries(a.organisation_id, e.id, "failed", first())).items).toEqual([])
          // A retry of a delivered one is a replay: a new round, its attempts continue the list.
          const retried = Option.getOrThrow(yield* store.retryDelivery(a, e.id, queued.id, t0 + 9000))
          expect(retried).toMatchObject({ status: "pending", next_attempt_at: t0 + 9000 })
          expect(yield* store.retryDelivery(a, e.id, "no-such-delivery", t0)).toEqual(Option.none())
          const [replayed] = yield* claimOwn([e.id], t0 + 9000)
          expect(replayed).toMatchObject({ attempt: 3, attempt_in_round: 1, event_id: id })
          yield* store.deleteEndpoint(a, e.id, t0)
        }))

      it.effect("an attempt whose lease ran out is recorded as interrupted; the last of a round fails the delivery", () =>
        Effect.gen(function*() {
          const store = yield* WebhookStore
          const a = yield* newActor
          const e = yield* store.createEndpoint(a, input, "whsec_AAAA", t0)
          const queued = yield* store.queueTest(a, e.id, eventId(), t0)
          for (let n = 1; n <= 3; n++) {
            const [c] = yield* claimOwn([e.id], t0 + (n - 1) * policy.leaseMs)
            expect(c).toMatchObject({ attempt: n })
          }
          expect(yield* claimOwn([e.id], t0 + 3 * policy.leaseMs)).toEqual([])
          const [d] = (yield* store.listDeliveries(a.organisation_id, e.id, undefined, first())).items
          expect(d).toMatchObject({ id: queued.id, status: "failed", next_attempt_at: null })
          expect(d?.attempts.map((x) => x.error)).toEqual([interruptedDeliveryError, interruptedDeliveryError, interruptedDeliveryError])
          yield* store.deleteEndpoint(a, e.id, t0)
        }))

      it.effect("a disabled endpoint's deliveries wait as pending; enabling makes them due at once; a 410 outcome disables", () =>
        Effect.gen(function*() {
          const store = yield* WebhookStore
          const a = yield* newActor
          const e = yield* store.createEndpoint(a, input, "whsec_AAAA", t0)
          yield* store.updateEndpoint(a, e.id, { enabled: false }, t0)
          yield* store.queueTest(a, e.id, eventId(), t0)
          expect(yield* claimOwn([e.id], t0 + 10)).toEqual([])
          yield* store.updateEndpoint(a, e.id, { enabled: true }, t0 + 20)
          const [c] = yield* claimOwn([e.id], t0 + 20)
          expect(c).toBeDefined()
          yield* store.recordAttempt(c as ClaimedDelivery, failed(t0 + 20, null, "the endpoint answered 410 Gone"))
          expect(Option.getOrThrow(yield* store.findEndpoint(a.organisation_id, e.id))).toMatchObject({
            enabled: false, disabled_reason: "the endpoint answered 410 Gone"
          })
          expect((yield* store.listDeliveries(a.organisation_id, e.id, "failed", first())).items).toHaveLength(1)
          yield* store.deleteEndpoint(a, e.id, t0)
        }))

      it.effect("claims running at once take disjoint deliveries", () =>
        Effect.gen(function*() {
          const store = yield* WebhookStore
          const a = yield* newActor
          const e = yield* store.createEndpoint(a, input, "whsec_AAAA", t0)
          yield* Effect.forEach(Array.from({ length: 24 }, () => eventId()), (id) => store.queueTest(a, e.id, id, t0), { discard: true })
          const claims = yield* Effect.all(Array.from({ length: 4 }, () => claimOwn([e.id], t0 + 1, 10)), { concurrency: "unbounded" })
          const ids = claims.flat().map((c) => c.id)
          expect(new Set(ids).size).toBe(ids.length)
          expect(ids.length).toBe(24)
          yield* store.deleteEndpoint(a, e.id, t0)
        }))

      it.effect("a claim leaves out an endpoint and an organisation at their caps; an outcome or a run-out lease frees a place", () =>
        Effect.gen(function*() {
          const store = yield* WebhookStore
          const a = yield* newActor
          const e1 = yield* store.createEndpoint(a, input, "whsec_AAAA", t0)
          const e2 = yield* store.createEndpoint(a, input, "whsec_AAAA", t0)
          yield* queueTests(a, e1.id, 5, t0)
          yield* queueTests(a, e2.id, 5, t0 + 1)
          const first = yield* claimOwn([e1.id, e2.id], t0 + 10, 200, capped)
          // Oldest due first: two of e1 (its cap), then one of e2 (the organisation's cap of three).
          expect(countBy(first, (c) => c.endpoint_id)).toEqual({ [e1.id]: 2, [e2.id]: 1 })
          expect(yield* claimOwn([e1.id, e2.id], t0 + 20, 200, capped)).toEqual([])
          yield* store.recordAttempt(first.find((c) => c.endpoint_id === e1.id) as ClaimedDelivery, ok(t0 + 30))
          const next = yield* claimOwn([e1.id, e2.id], t0 + 40, 200, capped)
          expect(next.map((c) => c.endpoint_id)).toEqual([e1.id])
          // Leases that ran out count no more: three places again (the interrupted ones are due again too).
          const later = yield* claimOwn([e1.id, e2.id], t0 + 40 + policy.leaseMs, 200, capped)
          expect(later).toHaveLength(3)
          expect(Math.max(...Object.values(countBy(later, (c) => c.endpoint_id)))).toBeLessThanOrEqual(2)
          yield* store.deleteEndpoint(a, e1.id, t0)
          yield* store.deleteEndpoint(a, e2.id, t0)
        }))

      it.effect("an organisation at its cap does not hold back another's newer delivery", () =>
        Effect.gen(function*() {
          const store = yield* WebhookStore
          const a = yield* newActor
          const b = yield* newActor
          const ea = yield* store.createEndpoint(a, input, "whsec_AAAA", t0)
          const eb = yield* store.createEndpoint(b, input, "whsec_AAAA", t0)
          yield* queueTests(a, ea.id, 10, t0)
          const [late] = yield* queueTests(b, eb.id, 1, t0 + 5)
          // Oldest first, five at most: without caps all five would be a's.
          const claimed = yield* claimOwn([ea.id, eb.id], t0 + 10, 5, { ...policy, endpointConcurrency: 4, organisationConcurrency: 4 })
          expect(countBy(claimed, (c) => c.organisation_id)).toEqual({ [a.organisation_id]: 4, [b.organisation_id]: 1 })
          expect(claimed.some((c) => c.id === late?.id)).toBe(true)
          yield* store.deleteEndpoint(a, ea.id, t0)
          yield* store.deleteEndpoint(b, eb.id, t0)
        }))

      it.effect("claims running at once hold to the caps together", () =>
        Effect.gen(function*() {
          const store = yield* WebhookStore
          const a = yield* newActor
          const e1 = yield* store.createEndpoint(a, input, "whsec_AAAA", t0)
          const e2 = yield* store.createEndpoint(a, input, "whsec_AAAA", t0)
          yield* queueTests(a, e1.id, 12, t0)
          yield* queueTests(a, e2.id, 12, t0)
          const claims = yield* Effect.all(
            Array.from({ length: 6 }, () => claimOwn([e1.id, e2.id], t0 + 1, 10, capped)),
            { concurrency: "unbounded" }
          )
          const all = claims.flat()
          expect(new Set(all.map((c) => c.id)).size).toBe(all.length)
          expect(all).toHaveLength(3)
          expect(Math.max(...Object.values(countBy(all, (c) => c.endpoint_id)))).toBeLessThanOrEqual(2)
          yield* store.deleteEndpoint(a, e1.id, t0)
          yield* store.deleteEndpoint(a, e2.id, t0)
        }))
    })
  })
}
