/**
 * In-memory `WebhookStore` (CONTRACT §13) over the shared `InMemoryStore`: each method one critical section.
 * The in-memory Outbox fans an event out to subscribed endpoints when it marks it delivered (`fanOut`), as
 * the SQL adapter does in that same statement. An event's organisation is its payload's `organisation_id`
 * (in memory a `section.submitted` event carries none unless its payload has it: it fans out to nobody).
 * Its audit entries go to the store's organiser audit log (`InMemoryOrganiser` built over the same store reads it).
 */
import { Effect, Layer, Option, Result } from "effect"
import type { Actor } from "../../shared/Actor.js"
import { WebhookNotFound } from "../../webhooks/errors.js"
import {
  type ClaimedDelivery,
  type DeliveryAttempt,
  interruptedDeliveryError,
  type WebhookDelivery,
  type WebhookEndpoint
} from "../../webhooks/WebhookModel.js"
import { WebhookStore } from "../../webhooks/WebhookStore.js"
import { appendAudit, InMemoryStore } from "../InMemoryStore.js"
import { newestFirst, pagedByCreation } from "../paging.js"
import { type InMemoryDelivery, type InMemoryEndpoint, uuid } from "./InMemoryWebhookState.js"
import { isUnsendable, newDelivery, organisationOf, subscribedTo } from "./webhookFanOut.js"

const publicEndpoint = (e: InMemoryEndpoint): WebhookEndpoint => ({
  id: e.id, url: e.url, event_types: e.event_types, description: e.description, enabled: e.enabled,
  disabled_reason: e.disabled_reason, created_at: e.created_at
})
const publicDelivery = (d: InMemoryDelivery): WebhookDelivery => ({
  id: d.id, endpoint_id: d.endpoint_id, event_id: d.event_id, event_type: d.event_type, status: d.status,
  attempts: d.attempts, next_attempt_at: d.next_attempt_at, created_at: d.created_at
})


const inMemoryWebhookStoreLayer = Layer.effect(
  WebhookStore,
  Effect.gen(function*() {
    const store = yield* InMemoryStore
    const state = store.data.webhooks
    const owned = (organisationId: string, id: string) => {
      const e = state.endpoints.get(id)
      return e !== undefined && e.organisation_id === organisationId ? e : undefined
    }
    const withEndpoint = <A>(organisationId: string, id: string, f: (e: InMemoryEndpoint, now: number) => A) =>
      store.atomically((now) => {
        const e = owned(organisationId, id)
        return e === undefined ? Result.fail(new WebhookNotFound()) : Result.succeed(f(e, now))
      })
    const audit = (actor: Actor, at: number, action: string, id: string, resource_type = "webhook") =>
      appendAudit(store.data, actor, at, { action, resource_type, resource_id: id })
    const replaceDelivery = (d: InMemoryDelivery) => {
      const i = state.deliveries.findIndex((x) => x.id === d.id)
      if (i >= 0) state.deliveries[i] = d
    }
    return WebhookStore.of({
      listEndpoints: (organisationId, page) =>
        store.atomically(() =>
          Result.succeed(pagedByCreation([...state.endpoints.values()].filter((e) => e.organisation_id === organisationId).map(publicEndpoint), newestFirst, page))
        ),
      findEndpoint: (organisationId, id) =>
        store.atomically(() => Result.succeed(Option.map(Option.fromUndefinedOr(owned(organisationId, id)), publicEndpoint))),
      createEndpoint: (actor, input, secret, at) =>
        store.atomically(() => {
          const endpoint: InMemoryEndpoint = {
            id: uuid(state, "b000"), url: input.url, event_types: [...input.event_types], description: input.description,
            enabled: true, disabled_reason: null, created_at: at, organisation_id: actor.organisation_id, secret,
            previous_secret: null, secret_rotated_at: null, replay_since: null
          }
          state.endpoints.set(endpoint.id, endpoint)
          audit(actor, at, "webhook.created", endpoint.id)
          return Result.succeed(publicEndpoint(endpoint))
        }),
      updateEndpoint: (actor, id, patch, at) =>
        withEndpoint(actor.organisation_id, id, (e) => {
          const enabled = patch.enabled ?? e.enabled
          const disabled_reason = patch.enabled === undefined
            ? e.disabled_reason
            : patch.enabled ? null : e.enabled ? "disabled by the organiser" : e.disabled_reason
          const changed: InMemoryEndpoint = {
            ...e,
            url: patch.url ?? e.url,
            event_types: patch.event_types ?? e.event_types,
            description: patch.description === undefined ? e.description : patch.description,
            enabled,
            disabled_reason
          }
          state.endpoints.set(id, changed)
          if (patch.enabled === true) {
            for (const d of state.deliveries) {
              if (d.endpoint_id === id && d.status === "pending" && d.claimed_until === null && (d.next_attempt_at ?? 0) > at) {
                replaceDelivery({ ...d, next_attempt_at: at })
              }
            }
          }
          audit(actor, at, "webhook.updated", id)
          return publicEndpoint(changed)
        }),
      deleteEndpoint: (actor, id, at) =>
        withEndpoint(actor.organisation_id, id, () => {
          state.endpoints.delete(id)
          for (let i = state.deliveries.length - 1; i >= 0; i--) if (state.deliveries[i]?.endpoint_id === id) state.deliveries.splice(i, 1)
          audit(actor, at, "webhook.deleted", id)
        }),
      rotateSecret: (actor, id, secret, at) =>
        withEndpoint(actor.organisation_id, id, (e) => {
          state.endpoints.set(id, { ...e, previous_secret: e.secret, secret, secret_rotated_at: at })
          audit(actor, at, "webhook.secret_rotated", id)
        }),
      listDeliveries: (organisationId, endpointId, status, page) =>
        withEndpoint(organisationId, endpointId, () =>
          pagedByCreation(state.deliveries.filter((d) => d.endpoint_id === endpointId && (status === undefined || d.status === status)).map(publicDelivery), newestFirst, page)),
      queueTest: (actor, endpointId, eventId, at) =>
        withEndpoint(actor.organisation_id, endpointId, (e) => {
          const d: InMemoryDelivery = {
            id: uuid(state, "a000"), endpoint_id: e.id, event_id: eventId, event_type: "webhook.test", status: "pending",
            attempts: [], next_attempt_at: at, created_at: at, organisation_id: e.organisation_id, form_id: null, event_at: at,
            test_payload: { webhook_id: e.id }, attempt_count: 0, round_start: 0, claimed_at: null, claimed_until: null
          }
          state.deliveries.push(d)
          return publicDelivery(d)
        }),
      retryDelivery: (actor, endpointId, deliveryId, at) =>
        withEndpoint(actor.organisation_id, endpointId, () => {
          const d = state.deliveries.find((x) => x.id === deliveryId && x.endpoint_id === endpointId)
          if (d === undefined) return Option.none()
          const changed = d.claimed_until !== null ? d : { ...d, status: "pending" as const, next_attempt_at: at, round_start: d.attempt_count }
          replaceDelivery(changed)
          audit(actor, at, "webhook_delivery.retried", d.id, "webhook_delivery")
          return Option.some(publicDelivery(changed))
        }),
      replay: (actor, endpointId, since, at) =>
        withEndpoint(actor.organisation_id, endpointId, (e) => {
          state.endpoints.set(e.id, { ...e, replay_since: Math.min(e.replay_since ?? since, since) })
          let queued = 0
          for (const row of store.data.outbox) {
            if (row.delivered_at === null || row.created_at < since || isUnsendable(row.payload)) continue
            if (organisationOf(row) !== e.organisation_id || !subscribedTo(e, row.type)) continue
            const existing = state.deliveries.find((d) => d.endpoint_id === e.id && d.event_id === row.id)
            if (existing === undefined) state.deliveries.push(newDelivery(state, e, row, at))
            else if (existing.claimed_until === null) {
              replaceDelivery({ ...existing, status: "pending", next_attempt_at: at, round_start: existing.attempt_count })
            } else continue
            queued++
          }
          audit(actor, at, "webhook.replayed", e.id)
          return queued
        }),
      claimDeliveries: (limit, policy, at) =>
        store.atomically(() => {
          // Attempts in flight (leased, lease not run out) per endpoint and per organisation: the caps count them.
          const perEndpoint = new Map<string, number>()
          const perOrganisation = new Map<string, number>()
          const count = (d: InMemoryDelivery) => {
            perEndpoint.set(d.endpoint_id, (perEndpoint.get(d.endpoint_id) ?? 0) + 1)
            perOrganisation.set(d.organisation_id, (perOrganisation.get(d.organisation_id) ?? 0) + 1)
          }
          for (const d of state.deliveries) if (d.status === "pending" && d.claimed_until !== null && d.claimed_until > at) count(d)
          const due = state.deliveries
            .filter((d) => d.status === "pending" && d.next_attempt_at !== null && d.next_attempt_at <= at &&
              state.endpoints.get(d.endpoint_id)?.enabled === true)
            .sort((a, b) => (a.next_attempt_at ?? 0) - (b.next_attempt_at ?? 0))
          const picked: Array<InMemoryDelivery> = []
          for (const d of due) {
            if (picked.length >= Math.max(0, limit)) break
            if ((perEndpoint.get(d.endpoint_id) ?? 0) >= policy.endpointConcurrency) continue
            if ((perOrganisation.get(d.organisation_id) ?? 0) >= policy.organisationConcurrency) continue
            count(d)
            picked.push(d)
          }
          const claimed: Array<ClaimedDelivery> = []
          for (const d of picked) {
            const interrupted = d.claimed_until !== null
            const attempts: ReadonlyArray<DeliveryAttempt> = interrupted
              ? [...d.attempts, { at: d.claimed_at ?? at, status_code: null, error: interruptedDeliveryError, duration_ms: null }]
              : d.attempts
            if (interrupted && d.attempt_count - d.round_start >= Math.max(1, policy.maxAttempts)) {
              replaceDelivery({ ...d, attempts, status: "failed", next_attempt_at: null, claimed_at: null, claimed_until: null })
              continue
            }
            const until = at + policy.leaseMs
            const changed = { ...d, attempts, attempt_count: d.attempt_count + 1, claimed_at: at, claimed_until: until, next_attempt_at: until }
            replaceDelivery(changed)
            const e = state.endpoints.get(d.endpoint_id)
            if (e === undefined) continue
            const event = store.data.outbox.find((row) => row.id === d.event_id)
            claimed.push({
              id: d.id, endpoint_id: d.endpoint_id, event_id: d.event_id, event_type: d.event_type, event_at: d.event_at,
              payload: d.test_payload ?? event?.payload ?? null, organisation_id: d.organisation_id, form_id: d.form_id,
              url: e.url, secret: e.secret, previous_secret: e.previous_secret, secret_rotated_at: e.secret_rotated_at,
              attempt: changed.attempt_count, attempt_in_round: changed.attempt_count - changed.round_start
            })
          }
          return Result.succeed(claimed)
        }),
      recordAttempt: (delivery, outcome) =>
        store.atomically(() => {
          const d = state.deliveries.find((x) => x.id === delivery.id)
          if (d === undefined || d.attempt_count !== delivery.attempt || d.claimed_until === null || d.status !== "pending") {
            return Result.succeed(undefined)
          }
          replaceDelivery({
            ...d, attempts: [...d.attempts, outcome.attempt], status: outcome.status, next_attempt_at: outcome.next_attempt_at,
            claimed_at: null, claimed_until: null
          })
          const e = state.endpoints.get(d.endpoint_id)
          if (outcome.disable_reason !== null && e !== undefined) {
            state.endpoints.set(e.id, { ...e, enabled: false, disabled_reason: outcome.disable_reason })
          }
          return Result.succeed(undefined)
        })
    })
  })
)

/** `InMemoryWebhookStore.layer`: needs the `InMemoryStore`. */
export const InMemoryWebhookStore = { layer: inMemoryWebhookStoreLayer } as const
