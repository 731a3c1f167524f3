/** Webhook endpoints and deliveries (CONTRACT §13): the records the ports store and the use cases answer. */

/** The event types an endpoint may subscribe to; `["*"]` subscribes to every one. */
export const webhookEventTypes = ["submission.submitted", "section.submitted", "submission.erased"] as const
export type WebhookEventType = typeof webhookEventTypes[number]
/** The type of a test message (POST …/test); never subscribed to, sent to one endpoint. */
export const webhookTestType = "webhook.test"

export interface WebhookEndpoint {
  readonly id: string
  readonly url: string
  /** Subscribed types, or `["*"]`. */
  readonly event_types: ReadonlyArray<string>
  readonly description: string | null
  readonly enabled: boolean
  readonly disabled_reason: string | null
  /** Epoch ms. */
  readonly created_at: number
}

/** An endpoint with its secret: the answer of a create (CONTRACT §13: shown in create and rotate answers only). */
export interface WebhookEndpointWithSecret extends WebhookEndpoint {
  readonly secret: string
}

export interface EndpointInput {
  readonly url: string
  readonly event_types: ReadonlyArray<string>
  readonly description: string | null
}

export interface EndpointPatch {
  readonly url?: string
  readonly event_types?: ReadonlyArray<string>
  readonly description?: string | null
  readonly enabled?: boolean
}

export type DeliveryStatus = "pending" | "delivered" | "failed"
export const deliveryStatuses: ReadonlyArray<DeliveryStatus> = ["pending", "delivered", "failed"]

/** One attempt as recorded: never the body, the headers or the secret. */
export interface DeliveryAttempt {
  /** Epoch ms when the attempt started. */
  readonly at: number
  readonly status_code: number | null
  readonly error: string | null
  readonly duration_ms: number | null
}

export interface WebhookDelivery {
  readonly id: string
  readonly endpoint_id: string
  readonly event_id: string
  readonly event_type: string
  readonly status: DeliveryStatus
  readonly attempts: ReadonlyArray<DeliveryAttempt>
  /** Epoch ms; null once delivered or failed. */
  readonly next_attempt_at: number | null
  readonly created_at: number
}

/** A delivery claimed for one attempt: everything the attempt needs, read in the claim's one step. */
export interface ClaimedDelivery {
  readonly id: string
  readonly endpoint_id: string
  readonly event_id: string
  readonly event_type: string
  /** Epoch ms: the event's time (the message's `timestamp`). */
  readonly event_at: number
  /** The event's payload (§6), or the test message's data; null when the event is gone. */
  readonly payload: Readonly<Record<string, unknown>> | null
  readonly organisation_id: string
  readonly form_id: string | null
  readonly url: string
  readonly secret: string
  /** The secret before the last rotation, and when that rotation happened (epoch ms). */
  readonly previous_secret: string | null
  readonly secret_rotated_at: number | null
  /** The number of this attempt in the delivery's list (1 for the first ever). */
  readonly attempt: number
  /** The number of this attempt in its round (a retry or replay starts a new round). */
  readonly attempt_in_round: number
}

/** What the engine decided after an attempt. */
export interface AttemptOutcome {
  readonly attempt: DeliveryAttempt
  readonly status: DeliveryStatus
  /** When `status` is `pending`: due again then (epoch ms). */
  readonly next_attempt_at: number | null
  /** Set: the endpoint is disabled with this reason (a 410 Gone). */
  readonly disable_reason: string | null
}

/** How deliveries are claimed: the lease covers one attempt, `maxAttempts` is 1 + n delays. */
export interface DeliveryClaimPolicy {
  readonly leaseMs: number
  readonly maxAttempts: number
}

/** The error an attempt gets when its lease ran out without an outcome (a crash, a stop). */
export const interruptedDeliveryError = "interrupted: the attempt's lease ran out without an outcome"

export interface DeliveryKey {
  readonly created_at: number
  readonly id: string
}
