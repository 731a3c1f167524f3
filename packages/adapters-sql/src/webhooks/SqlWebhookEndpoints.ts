/** The endpoint half of the `WebhookStore` port on PostgreSQL: endpoints scoped by organisation, with audit entries. */
import { Effect, Option } from "effect"
import type { SqlClient } from "effect/sql"
import { type Actor, type EndpointPatch, WebhookNotFound, type WebhookStore } from "@forms/domain"
import { appendAudit } from "../sql/appendAudit.js"
import { decodeRows } from "../sql/decodeRows.js"
import { newestFirst, toPage } from "../sql/paging.js"
import { sqlFailure } from "../sql/SqlFailure.js"
import { jsonText } from "../sql/sqlValues.js"
import { endpointColumns, EndpointRow, requireEndpoint } from "./webhookRows.js"

const decodeEndpoints = decodeRows(EndpointRow)

type EndpointMethods = Pick<
  WebhookStore["Service"],
  "listEndpoints" | "findEndpoint" | "createEndpoint" | "updateEndpoint" | "deleteEndpoint" | "rotateSecret"
>

export const makeEndpointMethods = (sql: SqlClient.SqlClient): EndpointMethods => {
  const cols = sql.literal(endpointColumns)
  const audit = (actor: Actor, at: number, action: string, id: string) =>
    appendAudit(sql, actor, at, { action, resource_type: "webhook", resource_id: id })
  // Locks the endpoint row of the actor's organisation for the rest of the transaction.
  const lockEndpoint = (actor: Actor, id: string) => requireEndpoint(sql, actor.organisation_id, id, { lock: "FOR UPDATE" })

  return {
    listEndpoints: Effect.fn("SqlWebhookStore.listEndpoints")(
      (organisationId, page) =>
        sql`SELECT ${cols} FROM webhook_endpoints w WHERE w.organisation_id = ${organisationId}
          AND ${newestFirst(sql, { created: "w.created_at", id: "w.id" }, page)}`.pipe(
          Effect.flatMap(decodeEndpoints),
          Effect.map((rows) => toPage(rows, page.limit))
        ),
      Effect.catchTag("SqlError", sqlFailure)
    ),
    findEndpoint: Effect.fn("SqlWebhookStore.findEndpoint")(
      (organisationId, id) =>
        sql`SELECT ${cols} FROM webhook_endpoints w WHERE w.id = ${id} AND w.organisation_id = ${organisationId}`,
      Effect.flatMap(decodeEndpoints),
      Effect.map((rows) => Option.fromUndefinedOr(rows[0])),
      Effect.catchTag("SqlError", sqlFailure)
    ),
    createEndpoint: Effect.fn("SqlWebhookStore.createEndpoint")(
      (actor, input, secret, at) =>
        sql.withTransaction(Effect.gen(function*() {
          const rows = yield* sql`INSERT INTO webhook_endpoints AS w
              (organisation_id, url, event_types, description, secret, created_at)
            VALUES (${actor.organisation_id}, ${input.url}, ARRAY(SELECT jsonb_array_elements_text(${jsonText(input.event_types)}::jsonb)), ${input.description},
              ${secret}, ${new Date(at)}::timestamptz)
            RETURNING ${cols}`.pipe(Effect.flatMap(decodeEndpoints))
          const endpoint = rows[0]
          if (endpoint === undefined) return yield* Effect.die("the insert returned no row")
          yield* audit(actor, at, "webhook.created", endpoint.id)
          return endpoint
        })),
      Effect.catchTag("SqlError", sqlFailure)
    ),
    updateEndpoint: Effect.fn("SqlWebhookStore.updateEndpoint")(
      (actor, id, patch: EndpointPatch, at) =>
        sql.withTransaction(Effect.gen(function*() {
          yield* lockEndpoint(actor, id)
          const when = new Date(at)
          const rows = yield* sql`UPDATE webhook_endpoints w SET
              url = COALESCE(${patch.url ?? null}, w.url),
              event_types = CASE WHEN ${patch.event_types === undefined} THEN w.event_types
                ELSE ARRAY(SELECT jsonb_array_elements_text(${jsonText(patch.event_types ?? [])}::jsonb)) END,
              description = CASE WHEN ${patch.description !== undefined} THEN ${patch.description ?? null} ELSE w.description END,
              enabled = COALESCE(${patch.enabled ?? null}::boolean, w.enabled),
              disabled_reason = CASE WHEN ${patch.enabled ?? null}::boolean IS NULL THEN w.disabled_reason
                WHEN ${patch.enabled ?? null}::boolean THEN NULL
                WHEN w.enabled THEN 'disabled by the organiser' ELSE w.disabled_reason END
            WHERE w.id = ${id} RETURNING ${cols}`.pipe(Effect.flatMap(decodeEndpoints))
          const endpoint = rows[0]
          if (endpoint === undefined) return yield* new WebhookNotFound()
          // Events queued while it was disabled are due at once (one in flight keeps its lease).
          if (patch.enabled === true) {
            yield* sql`UPDATE webhook_deliveries SET next_attempt_at = ${when}::timestamptz
              WHERE endpoint_id = ${id} AND status = 'pending' AND claimed_until IS NULL AND next_attempt_at > ${when}::timestamptz`
          }
          yield* audit(actor, at, "webhook.updated", id)
          return endpoint
        })),
      Effect.catchTag("SqlError", sqlFailure)
    ),
    deleteEndpoint: Effect.fn("SqlWebhookStore.deleteEndpoint")(
      (actor, id, at) =>
        sql.withTransaction(Effect.gen(function*() {
          yield* lockEndpoint(actor, id)
          yield* sql`DELETE FROM webhook_endpoints WHERE id = ${id}`
          yield* audit(actor, at, "webhook.deleted", id)
        })),
      Effect.catchTag("SqlError", sqlFailure)
    ),
    rotateSecret: Effect.fn("SqlWebhookStore.rotateSecret")(
      (actor, id, secret, at) =>
        sql.withTransaction(Effect.gen(function*() {
          yield* lockEndpoint(actor, id)
          yield* sql`UPDATE webhook_endpoints SET previous_secret = secret, secret = ${secret},
            secret_rotated_at = ${new Date(at)}::timestamptz WHERE id = ${id}`
          yield* audit(actor, at, "webhook.secret_rotated", id)
        })),
      Effect.catchTag("SqlError", sqlFailure)
    )
  }
}
