/** SQL shared by the webhook adapter and the outbox's fan-out: an event's organisation and form, row shapes. */
import { Schema } from "effect"
import type { DeliveryAttempt, WebhookDelivery } from "@forms/domain"
import { epochMs } from "../sql/sqlValues.js"

/**
 * The organisation of an outbox event `e` (`payload`): its own `organisation_id`, else its engagement's
 * (`section.submitted`).
 */
export const eventOrganisation = (e: string) =>
  `COALESCE(${e}.payload->>'organisation_id',
    (SELECT g.organisation_id FROM engagements g WHERE g.id = ${e}.payload->>'engagement_id'))`

/** The form of a message: the organisation's artist_advance schema for `section.submitted`, else `schema_id`. */
export const eventForm = (e: string, org: string) =>
  `CASE WHEN ${e}.type = 'section.submitted'
    THEN (SELECT f.id FROM form_schemas f WHERE f.organisation_id = ${org} AND f.type = 'artist_advance'
          ORDER BY f.id COLLATE "C" LIMIT 1)
    ELSE ${e}.payload->>'schema_id' END`

/** Whether endpoint `w` is subscribed to the type of `e`. */
export const subscribed = (w: string, e: string) => `(${e}.type = ANY(${w}.event_types) OR '*' = ANY(${w}.event_types))`

/** Erasure marks an event's payload `"erased": true`: never sent, never replayed. */
export const notErased = (e: string) => `NOT (${e}.payload @> '{"erased": true}'::jsonb)`
/** Neither erased nor emptied by retention (CONTRACT §12): an event that can still be sent. */
export const sendable = (e: string) => `${notErased(e)} AND ${e}.payload <> '{}'::jsonb`

export const endpointColumns = `w.id, w.url, w.event_types, w.description, w.enabled, w.disabled_reason,
  ${epochMs("w.created_at")} AS created_at`
export const EndpointRow = Schema.Struct({
  id: Schema.String,
  url: Schema.String,
  event_types: Schema.Array(Schema.String),
  description: Schema.NullOr(Schema.String),
  enabled: Schema.Boolean,
  disabled_reason: Schema.NullOr(Schema.String),
  created_at: Schema.Number
})

export const deliveryColumns = `d.id, d.endpoint_id, d.event_id::text AS event_id, d.event_type, d.status, d.attempts,
  ${epochMs("d.next_attempt_at")} AS next_attempt_at, ${epochMs("d.created_at")} AS created_at`
const AttemptRow = Schema.Struct({
  at: Schema.Number,
  status_code: Schema.NullOr(Schema.Number),
  error: Schema.NullOr(Schema.String),
  duration_ms: Schema.NullOr(Schema.Number)
})
export const DeliveryRow = Schema.Struct({
  id: Schema.String,
  endpoint_id: Schema.String,
  event_id: Schema.String,
  event_type: Schema.String,
  status: Schema.Literals(["pending", "delivered", "failed"]),
  attempts: Schema.Array(AttemptRow),
  next_attempt_at: Schema.NullOr(Schema.Number),
  created_at: Schema.Number
})
export const toDelivery = (row: typeof DeliveryRow.Type): WebhookDelivery => ({
  ...row,
  attempts: row.attempts.map((a): DeliveryAttempt => ({ ...a }))
})
