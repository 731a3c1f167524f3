/** The state of the in-memory webhook store: endpoints, deliveries, and the ids it hands out. */
import type { WebhookDelivery, WebhookEndpoint } from "../../webhooks/WebhookModel.js"

export interface InMemoryEndpoint extends WebhookEndpoint {
  readonly organisation_id: string
  readonly secret: string
  readonly previous_secret: string | null
  readonly secret_rotated_at: number | null
  /** The earliest time a replay reached back to: events since then are fanned out to it once handled. */
  readonly replay_since: number | null
}

export interface InMemoryDelivery extends WebhookDelivery {
  readonly organisation_id: string
  readonly form_id: string | null
  readonly event_at: number
  readonly test_payload: Readonly<Record<string, unknown>> | null
  readonly attempt_count: number
  readonly round_start: number
  readonly claimed_at: number | null
  readonly claimed_until: number | null
}

export interface InMemoryWebhookState {
  readonly endpoints: Map<string, InMemoryEndpoint>
  readonly deliveries: Array<InMemoryDelivery>
  sequence: number
}

export const makeWebhookState = (): InMemoryWebhookState => ({ endpoints: new Map(), deliveries: [], sequence: 0 })

export const uuid = (state: InMemoryWebhookState, kind: string) => {
  state.sequence += 1
  return `00000000-0000-4000-${kind}-${state.sequence.toString(16).padStart(12, "0")}`
}
