/** Webhook endpoints and deliveries on the wire: shapes for the document and the typed client. */
import { Schema, Struct } from "effect"
import { DeliveryAttempt, WebhookDelivery, WebhookEndpoint, WebhookEndpointWithSecret } from "@forms/domain"

import { envelopeOf, iso, isoOrNull, listOf } from "../http/wireShapes.js"
import { Count, Milliseconds, StatusCode } from "../http/wireNumbers.js"

/** The domain's endpoint, `created_at` in ISO 8601. */
export const WebhookWire = WebhookEndpoint.mapFields((f) => ({ ...f, created_at: Schema.String })).annotate({
  identifier: "AdminWebhook"
})
/** Only in the create answer: `secret` is `whsec_` + base64 of 32 random bytes. */
export const WebhookWithSecretWire = Schema.Struct({ ...WebhookWire.fields, secret: WebhookEndpointWithSecret.fields.secret })
  .annotate({ identifier: "AdminWebhookWithSecret" })
export const WebhookEnvelope = envelopeOf(WebhookWire, "AdminWebhookEnvelope")
export const WebhookCreatedEnvelope = envelopeOf(WebhookWithSecretWire, "AdminWebhookCreatedEnvelope")
export const WebhookList = listOf(WebhookWire, "AdminWebhookList")
export const SecretEnvelope = envelopeOf(Schema.Struct({ secret: Schema.String }), "AdminWebhookSecretEnvelope")
export const TestQueuedEnvelope = envelopeOf(Schema.Struct({ event_id: Schema.String }), "AdminWebhookTestEnvelope")
export const ReplayQueuedEnvelope = envelopeOf(Schema.Struct({ queued: Count }), "AdminWebhookReplayEnvelope")

/** The domain's attempt: `at` in ISO 8601, the status code and duration in the API's ranges. */
const AttemptWire = DeliveryAttempt.mapFields((f) => ({
  ...f,
  at: Schema.String,
  status_code: Schema.NullOr(StatusCode),
  duration_ms: Schema.NullOr(Milliseconds)
}))
/** The domain's delivery without `endpoint_id` (the path names it), its instants in ISO 8601. */
export const DeliveryWire = WebhookDelivery.mapFields(Struct.omit(["endpoint_id"]))
  .mapFields((f) => ({
    ...f,
    attempts: Schema.Array(AttemptWire),
    next_attempt_at: Schema.NullOr(Schema.String),
    created_at: Schema.String
  }))
  .annotate({ identifier: "AdminWebhookDelivery" })
export const DeliveryEnvelope = envelopeOf(DeliveryWire, "AdminWebhookDeliveryEnvelope")
export const DeliveryList = listOf(DeliveryWire, "AdminWebhookDeliveryList")

export const WebhookBody = Schema.Struct({
  url: Schema.String,
  event_types: Schema.Array(Schema.String),
  description: Schema.optionalKey(Schema.NullOr(Schema.String))
}).annotate({ identifier: "AdminWebhookBody" })
export const WebhookPatchBody = Schema.Struct({
  url: Schema.optionalKey(Schema.String),
  event_types: Schema.optionalKey(Schema.Array(Schema.String)),
  description: Schema.optionalKey(Schema.NullOr(Schema.String)),
  enabled: Schema.optionalKey(Schema.Boolean)
}).annotate({ identifier: "AdminWebhookPatch" })
export const ReplayBody = Schema.Struct({ since: Schema.String }).annotate({ identifier: "AdminWebhookReplayBody" })

export const toWebhookWire = (w: WebhookEndpoint): typeof WebhookWire.Type => ({
  id: w.id,
  url: w.url,
  event_types: [...w.event_types],
  description: w.description,
  enabled: w.enabled,
  disabled_reason: w.disabled_reason,
  created_at: iso(w.created_at)
})
export const toWebhookWithSecretWire = (w: WebhookEndpointWithSecret): typeof WebhookWithSecretWire.Type => ({
  ...toWebhookWire(w),
  secret: w.secret
})
export const toDeliveryWire = (d: WebhookDelivery): typeof DeliveryWire.Type => ({
  id: d.id,
  event_id: d.event_id,
  event_type: d.event_type,
  status: d.status,
  attempts: d.attempts.map((a) => ({ at: iso(a.at), status_code: a.status_code, error: a.error, duration_ms: a.duration_ms })),
  next_attempt_at: isoOrNull(d.next_attempt_at),
  created_at: iso(d.created_at)
})
