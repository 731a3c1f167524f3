/** Webhook endpoints and deliveries (CONTRACT §13): the records the ports store and the use cases answer. */
import { Schema } from "effect"
import { EventType } from "../events/Outbox.js"

/** The event types an endpoint may subscribe to (the outbox's); `["*"]` subscribes to every one. */
export const webhookEventTypes = EventType.literals
export type WebhookEventType = typeof webhookEventTypes[number]
/** The type of a test message (POST …/test); never subscribed to, sent to one endpoint. */
export const webhookTestType = "webhook.test"

export const WebhookEndpoint = Schema.Struct({
  id: Schema.String,
  url: Schema.String,
  /** Subscribed types, or `["*"]`. */
  event_types: Schema.Array(Schema.String),
  description: Schema.NullOr(Schema.String),
  enabled: Schema.Boolean,
  disabled_reason: Schema.NullOr(Schema.String),
  /** Epoch ms. */
  created_at: Schema.Number
})
export type WebhookEndpoint = typeof WebhookEndpoint.Type

/** An endpoint with its secret: the answer of a create (CONTRACT §13: shown in create and rotate answers only). */
export const WebhookEndpointWithSecret = Schema.Struct({
  ...WebhookEndpoint.fields,
  secret: Schema.String
})
export type WebhookEndpointWithSecret = typeof WebhookEndpointWithSecret.Type

export const EndpointInput = Schema.Struct({
  url: Schema.String,
  event_types: Schema.Array(Schema.String),
  description: Schema.NullOr(Schema.String)
})
export type EndpointInput = typeof EndpointInput.Type

export const EndpointPatch = Schema.Struct({
  url: Schema.optionalKey(Schema.String),
  event_types: Schema.optionalKey(Schema.Array(Schema.String)),
  description: Schema.optionalKey(Schema.NullOr(Schema.String)),
  enabled: Schema.optionalKey(Schema.Boolean)
})
export type EndpointPatch = typeof EndpointPatch.Type

export const DeliveryStatus = Schema.Literals(["pending", "delivered", "failed"])
export type DeliveryStatus = typeof DeliveryStatus.Type
export const deliveryStatuses: ReadonlyArray<DeliveryStatus> = DeliveryStatus.literals

/** One attempt as recorded: never the body, the headers or the secret. */
export const DeliveryAttempt = Schema.Struct({
  /** Epoch ms when the attempt started. */
  at: Schema.Number,
  status_code: Schema.NullOr(Schema.Number),
  error: Schema.NullOr(Schema.String),
  duration_ms: Schema.NullOr(Schema.Number)
})
export type DeliveryAttempt = typeof DeliveryAttempt.Type

export const WebhookDelivery = Schema.Struct({
  id: Schema.String,
  endpoint_id: Schema.String,
  event_id: Schema.String,
  event_type: Schema.String,
  status: DeliveryStatus,
  attempts: Schema.Array(DeliveryAttempt),
  /** Epoch ms; null once delivered or failed. */
  next_attempt_at: Schema.NullOr(Schema.Number),
  created_at: Schema.Number
})
export type WebhookDelivery = typeof WebhookDelivery.Type

/** A delivery claimed for one attempt: everything the attempt needs, read in the claim's one step. */
export const ClaimedDelivery = Schema.Struct({
  id: Schema.String,
  endpoint_id: Schema.String,
  event_id: Schema.String,
  event_type: Schema.String,
  /** Epoch ms: the event's time (the message's `timestamp`). */
  event_at: Schema.Number,
  /** The event's payload (§6), or the test message's data; null when the event is gone. */
  payload: Schema.NullOr(Schema.Record(Schema.String, Schema.Unknown)),
  organisation_id: Schema.String,
  form_id: Schema.NullOr(Schema.String),
  url: Schema.String,
  secret: Schema.String,
  /** The secret before the last rotation, and when that rotation happened (epoch ms). */
  previous_secret: Schema.NullOr(Schema.String),
  secret_rotated_at: Schema.NullOr(Schema.Number),
  /** The number of this attempt in the delivery's list (1 for the first ever). */
  attempt: Schema.Number,
  /** The number of this attempt in its round (a retry or replay starts a new round). */
  attempt_in_round: Schema.Number
})
export type ClaimedDelivery = typeof ClaimedDelivery.Type

/** What the engine decided after an attempt. */
export const AttemptOutcome = Schema.Struct({
  attempt: DeliveryAttempt,
  status: DeliveryStatus,
  /** When `status` is `pending`: due again then (epoch ms). */
  next_attempt_at: Schema.NullOr(Schema.Number),
  /** Set: the endpoint is disabled with this reason (a 410 Gone). */
  disable_reason: Schema.NullOr(Schema.String)
})
export type AttemptOutcome = typeof AttemptOutcome.Type

/**
 * How deliveries are claimed: the lease covers one attempt, `maxAttempts` is 1 + n delays. A claim leaves out
 * the deliveries of an endpoint with `endpointConcurrency` attempts in flight (leased, lease not run out) and of
 * an organisation with `organisationConcurrency`, counting what it takes itself.
 */
export interface DeliveryClaimPolicy {
  readonly leaseMs: number
  readonly maxAttempts: number
  readonly endpointConcurrency: number
  readonly organisationConcurrency: number
}

/** The error an attempt gets when its lease ran out without an outcome (a crash, a stop). */
export const interruptedDeliveryError = "interrupted: the attempt's lease ran out without an outcome"
