/** The fan-out the in-memory Outbox runs when it marks an event handled: one delivery per subscribed endpoint. */
import type { InMemoryOutboxRow } from "../InMemoryStore.js"
import {
  type InMemoryDelivery,
  type InMemoryEndpoint,
  type InMemoryWebhookState,
  uuid
} from "./InMemoryWebhookState.js"

export const isErased = (payload: Readonly<Record<string, unknown>>) => payload["erased"] === true
/** Erased, or emptied by retention: an event that can no longer be sent. */
export const isUnsendable = (payload: Readonly<Record<string, unknown>>) => isErased(payload) || Object.keys(payload).length === 0
export const organisationOf = (row: InMemoryOutboxRow) =>
  typeof row.payload["organisation_id"] === "string" ? row.payload["organisation_id"] : undefined
export const subscribedTo = (endpoint: InMemoryEndpoint, type: string) =>
  endpoint.event_types.includes("*") || endpoint.event_types.includes(type)

/** Records the deliveries of a handled event, one per subscribed endpoint (none twice). */
export const fanOut = (state: InMemoryWebhookState, row: InMemoryOutboxRow, now: number): number => {
  const org = organisationOf(row)
  if (org === undefined || isErased(row.payload)) return 0
  let added = 0
  for (const endpoint of state.endpoints.values()) {
    const since = Math.min(endpoint.created_at, endpoint.replay_since ?? endpoint.created_at)
    if (endpoint.organisation_id !== org || !subscribedTo(endpoint, row.type) || since > row.created_at) continue
    if (state.deliveries.some((d) => d.endpoint_id === endpoint.id && d.event_id === row.id)) continue
    state.deliveries.push(newDelivery(state, endpoint, row, now))
    added++
  }
  return added
}

export const newDelivery = (state: InMemoryWebhookState, endpoint: InMemoryEndpoint, row: InMemoryOutboxRow, now: number): InMemoryDelivery => ({
  id: uuid(state, "a000"),
  endpoint_id: endpoint.id,
  event_id: row.id,
  event_type: row.type,
  status: "pending",
  attempts: [],
  next_attempt_at: now,
  created_at: now,
  organisation_id: endpoint.organisation_id,
  form_id: typeof row.payload["schema_id"] === "string" ? row.payload["schema_id"] : null,
  event_at: row.created_at,
  test_payload: null,
  attempt_count: 0,
  round_start: 0,
  claimed_at: null,
  claimed_until: null
})

