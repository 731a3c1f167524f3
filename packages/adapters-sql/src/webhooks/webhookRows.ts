/** Webhook endpoints and deliveries as their rows read them, and the lookup of an organisation's endpoint. */
import { Effect, Schema } from "effect"
import type { SqlClient } from "effect/sql"
import { type DeliveryAttempt, type WebhookDelivery, WebhookNotFound } from "@forms/domain"
import { epochMs } from "../sql/sqlValues.js"

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

/**
 * Fails with `WebhookNotFound` unless the endpoint is the organisation's. With `lock: "FOR UPDATE"` (inside a write)
 * its row stays locked until the transaction ends: writes of one endpoint and its deliveries take it first.
 */
export const requireEndpoint = (
  sql: SqlClient.SqlClient,
  organisationId: string,
  id: string,
  options: { readonly lock?: "FOR UPDATE" } = {}
) =>
  sql`SELECT w.id FROM webhook_endpoints w WHERE w.id = ${id} AND w.organisation_id = ${organisationId} ${sql.literal(options.lock ?? "")}`.pipe(
    Effect.flatMap((rows) => rows.length === 0 ? Effect.fail(new WebhookNotFound()) : Effect.void)
  )
