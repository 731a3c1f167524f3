/** Webhook endpoints and deliveries as their rows read them (the domain's records), and the lookup of an organisation's endpoint. */
import { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import { WebhookDelivery, WebhookEndpoint, WebhookNotFound } from "@forms/domain"
import { epochMs } from "../sql/sqlValues.js"

export const endpointColumns = `w.id, w.url, w.event_types, w.description, w.enabled, w.disabled_reason,
  ${epochMs("w.created_at")} AS created_at`
export const EndpointRow = WebhookEndpoint

export const deliveryColumns = `d.id, d.endpoint_id, d.event_id::text AS event_id, d.event_type, d.status, d.attempts,
  ${epochMs("d.next_attempt_at")} AS next_attempt_at, ${epochMs("d.created_at")} AS created_at`
export const DeliveryRow = WebhookDelivery

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
