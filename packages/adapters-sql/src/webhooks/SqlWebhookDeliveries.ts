/**
 * The delivery half of the `WebhookStore` port on PostgreSQL. Claims are one statement (SKIP LOCKED: racing
 * processes take disjoint deliveries; the lease hides a claimed one; an advisory lock serialises claims so that
 * the per-endpoint and per-organisation caps hold over every process), outcomes one statement; nothing is
 * held between them, so no connection waits on a receiver.
 */
import { Effect, Option, Schema } from "effect"
import type { SqlClient } from "effect/sql"
import { type Actor, type ClaimedDelivery, interruptedDeliveryError, type WebhookStore } from "@forms/domain"
import { appendAudit } from "../sql/appendAudit.js"
import { decodeRows } from "../sql/decodeRows.js"
import { newestFirst, toPage } from "../sql/paging.js"
import { sqlFailure } from "../sql/SqlFailure.js"
import { epochMs, isUuid, jsonText, toValues } from "../sql/sqlValues.js"
import { eventForm, eventOrganisation, sendable, subscribed } from "./fanOutSql.js"
import { deliveryColumns, DeliveryRow, requireEndpoint } from "./webhookRows.js"

const decodeDeliveries = decodeRows(DeliveryRow)
const ClaimRow = Schema.Struct({
  id: Schema.String,
  exhausted: Schema.Boolean,
  endpoint_id: Schema.String,
  event_id: Schema.String,
  event_type: Schema.String,
  organisation_id: Schema.String,
  form_id: Schema.NullOr(Schema.String),
  payload: Schema.Unknown,
  event_at: Schema.Number,
  attempt_count: Schema.Number,
  round_start: Schema.Number,
  url: Schema.String,
  secret: Schema.String,
  previous_secret: Schema.NullOr(Schema.String),
  secret_rotated_at: Schema.NullOr(Schema.Number)
})
const decodeClaims = decodeRows(ClaimRow)
/** The advisory lock that serialises claims (with the schema: deployments in other schemas claim apart). */
const claimLockKey = "forms_webhook_claims"

type DeliveryMethods = Pick<
  WebhookStore["Service"],
  "listDeliveries" | "queueTest" | "retryDelivery" | "replay" | "claimDeliveries" | "recordAttempt"
>

export const makeDeliveryMethods = (sql: SqlClient.SqlClient): DeliveryMethods => {
  const cols = sql.literal(deliveryColumns)
  const audit = (actor: Actor, at: number, action: string, type: string, id: string) =>
    appendAudit(sql, actor, at, { action, resource_type: type, resource_id: id })

  return {
    listDeliveries: Effect.fn("SqlWebhookStore.listDeliveries")(
      function*(organisationId, endpointId, status, page) {
        yield* requireEndpoint(sql, organisationId, endpointId)
        const rows = yield* sql`SELECT ${cols} FROM webhook_deliveries d WHERE d.endpoint_id = ${endpointId}
          AND (${status ?? null}::text IS NULL OR d.status = ${status ?? null})
          AND ${newestFirst(sql, { created: "d.created_at", id: "d.id" }, page)}`.pipe(Effect.flatMap(decodeDeliveries))
        return toPage(rows, page.limit)
      },
      Effect.catchTag("SqlError", sqlFailure)
    ),

    queueTest: Effect.fn("SqlWebhookStore.queueTest")(
      (actor, endpointId, eventId, at) =>
        sql.withTransaction(Effect.gen(function*() {
          yield* requireEndpoint(sql, actor.organisation_id, endpointId, { lock: "FOR UPDATE" })
          const when = new Date(at)
          const rows = yield* sql`INSERT INTO webhook_deliveries AS d (endpoint_id, event_id, event_type, organisation_id,
              test_payload, event_at, status, next_attempt_at, created_at)
            VALUES (${endpointId}, ${eventId}::uuid, 'webhook.test', ${actor.organisation_id},
              ${jsonText({ webhook_id: endpointId })}::jsonb, ${when}::timestamptz, 'pending', ${when}::timestamptz,
              ${when}::timestamptz)
            RETURNING ${cols}`.pipe(Effect.flatMap(decodeDeliveries))
          const row = rows[0]
          if (row === undefined) return yield* Effect.die("the insert returned no row")
          return row
        })),
      Effect.catchTag("SqlError", sqlFailure)
    ),

    retryDelivery: Effect.fn("SqlWebhookStore.retryDelivery")(
      (actor, endpointId, deliveryId, at) =>
        sql.withTransaction(Effect.gen(function*() {
          yield* requireEndpoint(sql, actor.organisation_id, endpointId, { lock: "FOR UPDATE" })
          // An attempt in flight keeps its lease: the delivery is answered as it is.
          yield* sql`UPDATE webhook_deliveries d SET status = 'pending', next_attempt_at = ${new Date(at)}::timestamptz,
              round_start = d.attempt_count
            WHERE d.id = ${deliveryId} AND d.endpoint_id = ${endpointId} AND d.claimed_until IS NULL`
          const rows = yield* sql`SELECT ${cols} FROM webhook_deliveries d WHERE d.id = ${deliveryId} AND d.endpoint_id = ${endpointId}`
            .pipe(Effect.flatMap(decodeDeliveries))
          const row = rows[0]
          if (row === undefined) return Option.none()
          yield* audit(actor, at, "webhook_delivery.retried", "webhook_delivery", row.id)
          return Option.some(row)
        })),
      Effect.catchTag("SqlError", sqlFailure)
    ),

    replay: Effect.fn("SqlWebhookStore.replay")(
      (actor, endpointId, since, at) =>
        sql.withTransaction(Effect.gen(function*() {
          yield* requireEndpoint(sql, actor.organisation_id, endpointId, { lock: "FOR UPDATE" })
          const when = new Date(at)
          // Events recorded since then but not handled yet are fanned out to the endpoint once handled (SqlOutbox).
          yield* sql`UPDATE webhook_endpoints SET replay_since = LEAST(COALESCE(replay_since, ${new Date(since)}::timestamptz),
              ${new Date(since)}::timestamptz) WHERE id = ${endpointId}`
          const rows = yield* sql`WITH ev AS (
              SELECT o.id, o.type, o.payload, o.created_at, ${sql.literal(eventOrganisation("o"))} AS org FROM outbox o
              WHERE o.created_at >= ${new Date(since)}::timestamptz AND o.delivered_at IS NOT NULL
                AND ${sql.literal(sendable("o"))}),
            mine AS (SELECT ev.* FROM ev JOIN webhook_endpoints w ON w.id = ${endpointId}
              AND ev.org = w.organisation_id AND ${sql.literal(subscribed("w", "ev"))})
            INSERT INTO webhook_deliveries AS d
              (endpoint_id, event_id, event_type, organisation_id, form_id, event_at, status, next_attempt_at, created_at)
            SELECT ${endpointId}, mine.id, mine.type, mine.org, ${sql.literal(eventForm("mine", "mine.org"))}, mine.created_at,
              'pending', ${when}::timestamptz, ${when}::timestamptz FROM mine
            ON CONFLICT (endpoint_id, event_id) DO UPDATE SET status = 'pending', next_attempt_at = EXCLUDED.next_attempt_at,
              round_start = d.attempt_count
              WHERE d.claimed_until IS NULL
            RETURNING d.id`
          yield* audit(actor, at, "webhook.replayed", "webhook", endpointId)
          return rows.length
        })),
      Effect.catchTag("SqlError", sqlFailure)
    ),

    claimDeliveries: Effect.fn("SqlWebhookStore.claimDeliveries")(
      function*(limit, policy, at) {
        if (limit <= 0) return []
        const now = new Date(at)
        const until = new Date(at + Math.max(0, policy.leaseMs))
        const endpointCap = Math.max(1, policy.endpointConcurrency)
        const organisationCap = Math.max(1, policy.organisationConcurrency)
        // Claims are serialised (a transaction-scoped advisory lock, per schema): each counts the attempts in flight
        // after the one before committed, so the caps hold over every process. A claim is one short statement.
        const rows = yield* sql.withTransaction(Effect.gen(function*() {
          yield* sql`SELECT pg_advisory_xact_lock(hashtextextended(${claimLockKey} || ':' || current_schema(), 0))`
          // In flight: leased and the lease not run out. Each enabled endpoint offers at most its room (cap less in
          // flight, bounded by its organisation's room) of its oldest due deliveries: one endpoint's backlog is never
          // read past that. Of those, each organisation keeps its room, oldest due first; then the oldest `limit`.
          return yield* sql`WITH busy AS (
              SELECT d.endpoint_id, d.organisation_id, count(*)::int AS n FROM webhook_deliveries d
              WHERE d.claimed_until IS NOT NULL AND d.claimed_until > ${now}::timestamptz AND d.status = 'pending'
              GROUP BY d.endpoint_id, d.organisation_id),
            organisation_room AS (
              SELECT b.organisation_id, ${organisationCap}::int - sum(b.n)::int AS room FROM busy b GROUP BY b.organisation_id),
            endpoint_room AS (
              SELECT w.id, LEAST(
                  ${endpointCap}::int - COALESCE((SELECT sum(b.n)::int FROM busy b WHERE b.endpoint_id = w.id), 0),
                  COALESCE((SELECT o.room FROM organisation_room o WHERE o.organisation_id = w.organisation_id),
                    ${organisationCap}::int)) AS room
              FROM webhook_endpoints w WHERE w.enabled),
            offered AS (
              SELECT c.* FROM endpoint_room e CROSS JOIN LATERAL (
                SELECT d.id, d.organisation_id, d.next_attempt_at, d.seq FROM webhook_deliveries d
                WHERE d.endpoint_id = e.id AND d.status = 'pending' AND d.next_attempt_at <= ${now}::timestamptz
                ORDER BY d.next_attempt_at, d.seq LIMIT GREATEST(e.room, 0)) c
              WHERE e.room > 0),
            ranked AS (
              SELECT f.*, row_number() OVER (PARTITION BY f.organisation_id ORDER BY f.next_attempt_at, f.seq) AS rank
              FROM offered f),
            chosen AS (
              SELECT r.id FROM ranked r
              WHERE r.rank <= COALESCE((SELECT o.room FROM organisation_room o WHERE o.organisation_id = r.organisation_id),
                ${organisationCap}::int)
              ORDER BY r.next_attempt_at, r.seq
              LIMIT ${limit}),
            picked AS (
              SELECT d.id, d.claimed_until IS NOT NULL AS interrupted,
                d.claimed_until IS NOT NULL AND d.attempt_count - d.round_start >= ${Math.max(1, policy.maxAttempts)}::int AS exhausted,
                ${sql.literal(epochMs("d.claimed_at"))} AS claimed_ms
              FROM webhook_deliveries d
              WHERE d.id IN (SELECT c.id FROM chosen c) AND d.status = 'pending' AND d.next_attempt_at <= ${now}::timestamptz
              FOR UPDATE OF d SKIP LOCKED)
            UPDATE webhook_deliveries d SET
              attempts = CASE WHEN picked.interrupted THEN d.attempts || jsonb_build_array(jsonb_build_object(
                  'at', picked.claimed_ms, 'status_code', NULL, 'error', ${interruptedDeliveryError}::text, 'duration_ms', NULL))
                ELSE d.attempts END,
              status = CASE WHEN picked.exhausted THEN 'failed' ELSE 'pending' END,
              attempt_count = CASE WHEN picked.exhausted THEN d.attempt_count ELSE d.attempt_count + 1 END,
              claimed_at = CASE WHEN picked.exhausted THEN NULL ELSE ${now}::timestamptz END,
              claimed_until = CASE WHEN picked.exhausted THEN NULL ELSE ${until}::timestamptz END,
              next_attempt_at = CASE WHEN picked.exhausted THEN NULL ELSE ${until}::timestamptz END
            FROM picked WHERE d.id = picked.id
            RETURNING d.id, picked.exhausted, d.endpoint_id, d.event_id::text AS event_id, d.event_type, d.organisation_id,
              d.form_id, COALESCE(d.test_payload, (SELECT o.payload FROM outbox o WHERE o.id = d.event_id)) AS payload,
              ${sql.literal(epochMs("d.event_at"))} AS event_at, d.attempt_count, d.round_start,
              (SELECT w.url FROM webhook_endpoints w WHERE w.id = d.endpoint_id) AS url,
              (SELECT w.secret FROM webhook_endpoints w WHERE w.id = d.endpoint_id) AS secret,
              (SELECT w.previous_secret FROM webhook_endpoints w WHERE w.id = d.endpoint_id) AS previous_secret,
              (SELECT ${sql.literal(epochMs("w.secret_rotated_at"))} FROM webhook_endpoints w WHERE w.id = d.endpoint_id)
                AS secret_rotated_at`.pipe(Effect.flatMap(decodeClaims))
        }))
        return rows.filter((row) => !row.exhausted).map((row): ClaimedDelivery => ({
          id: row.id,
          endpoint_id: row.endpoint_id,
          event_id: row.event_id,
          event_type: row.event_type,
          event_at: row.event_at,
          payload: row.payload === null || typeof row.payload !== "object" ? null : toValues(row.payload),
          organisation_id: row.organisation_id,
          form_id: row.form_id,
          url: row.url,
          secret: row.secret,
          previous_secret: row.previous_secret,
          secret_rotated_at: row.secret_rotated_at,
          attempt: row.attempt_count,
          attempt_in_round: row.attempt_count - row.round_start
        }))
      },
      Effect.catchTag("SqlError", sqlFailure)
    ),

    recordAttempt: Effect.fn("SqlWebhookStore.recordAttempt")(
      function*(delivery, outcome) {
        if (!isUuid(delivery.event_id)) return
        const next = outcome.next_attempt_at === null ? null : new Date(outcome.next_attempt_at)
        // Fenced on the attempt's number: a late holder (its lease passed, the delivery claimed again) records nothing.
        const record = sql`UPDATE webhook_deliveries SET attempts = attempts || jsonb_build_array(${jsonText(outcome.attempt)}::jsonb),
            status = ${outcome.status}, next_attempt_at = ${next}::timestamptz, claimed_until = NULL, claimed_at = NULL
          WHERE id = ${delivery.id} AND attempt_count = ${delivery.attempt}::int AND claimed_until IS NOT NULL
            AND status = 'pending'
          RETURNING endpoint_id`
        if (outcome.disable_reason === null) return yield* Effect.asVoid(record)
        // Disabling the endpoint too: its row is locked before the delivery's, in the order of a replay and of the
        // endpoint's delete (endpoint, then its deliveries), so that neither can deadlock with this.
        yield* sql.withTransaction(Effect.gen(function*() {
          yield* sql`SELECT 1 FROM webhook_endpoints WHERE id = ${delivery.endpoint_id} FOR UPDATE`
          const recorded = yield* record
          if (recorded.length === 0) return
          yield* sql`UPDATE webhook_endpoints SET enabled = false, disabled_reason = ${outcome.disable_reason}::text
            WHERE id = ${delivery.endpoint_id}`
        }))
      },
      Effect.catchTag("SqlError", sqlFailure)
    )
  }
}
