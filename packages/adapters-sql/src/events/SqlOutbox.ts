/** The `Outbox` port on PostgreSQL: claims count an attempt and lease, so a crashed dispatcher's events come back, counted. */
import { Clock, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { type ClaimPolicy, EventType, interruptedAttemptError, Outbox, type OutboxEvent } from "@forms/domain"
import { decodeRows } from "../sql/decodeRows.js"
import { sqlFailure } from "../sql/SqlFailure.js"
import { epochMs, isUuid, jsonText, toValues } from "../sql/sqlValues.js"
import { eventForm, eventOrganisation, notErased, subscribed } from "../webhooks/fanOutSql.js"

const Row = Schema.Struct({
  id: Schema.String,
  type: EventType,
  payload: Schema.Unknown,
  attempts: Schema.Number,
  last_error: Schema.NullOr(Schema.String)
})
const ClaimRow = Schema.Struct({ ...Row.fields, parked: Schema.Boolean, due: Schema.Number, seq: Schema.Number })
const decodeClaimRows = decodeRows(ClaimRow)
const decodeEvents = decodeRows(Row)

const toEvents = (rows: ReadonlyArray<unknown>) =>
  decodeEvents(rows).pipe(
    Effect.map((decoded) => decoded.map((row): OutboxEvent => ({ ...row, payload: toValues(row.payload) })))
  )

/** Which of the due events a claim takes; `firstInterruptedAlone` is the rule of `claimBatch`. */
interface ClaimRule {
  readonly firstInterruptedAlone: boolean
}

export const makeSqlOutbox = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

  // One statement: SKIP LOCKED makes racing dispatchers take disjoint events; each picked event gets
  // its attempt counted and a lease (a later `available_at`, which also sends a crashed one to the
  // back of the queue), or, when the attempt before was claimed and never answered and was the last
  // of its round, is parked dead.
  // With `firstInterruptedAlone` (claimBatch): of the due events taken, the first alone when its last attempt was
  // interrupted, else only those whose last attempt was not (the others stay due, locked for this statement only).
  const claimDue = Effect.fnUntraced(
    function*(limit: number, policy: ClaimPolicy, rule: ClaimRule) {
      if (limit <= 0) return { events: [], parked: [] }
      const at = yield* now
      const until = new Date(at.getTime() + Math.max(0, policy.leaseMs))
      const rows = yield* sql`
        WITH candidates AS (
          SELECT id, available_at, seq, claimed_until IS NOT NULL AS interrupted,
            claimed_until IS NOT NULL AND attempts > 0 AND attempts % ${Math.max(1, policy.maxAttempts)}::int = 0 AS parks
          FROM outbox
          WHERE delivered_at IS NULL AND dead_at IS NULL AND available_at <= ${at}::timestamptz
          ORDER BY available_at, seq
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED),
        ranked AS (
          SELECT c.*, first_value(c.interrupted) OVER (ORDER BY c.available_at, c.seq) AS first_interrupted,
            row_number() OVER (ORDER BY c.available_at, c.seq) AS rn
          FROM candidates c),
        picked AS (
          SELECT * FROM ranked WHERE ${
        sql.literal(rule.firstInterruptedAlone ? "CASE WHEN first_interrupted THEN rn = 1 ELSE NOT interrupted END" : "true")
      })
        UPDATE outbox o SET
          attempts = CASE WHEN picked.parks THEN o.attempts ELSE o.attempts + 1 END,
          last_error = CASE WHEN picked.interrupted THEN ${interruptedAttemptError} ELSE o.last_error END,
          dead_at = CASE WHEN picked.parks THEN ${at}::timestamptz END,
          claimed_until = CASE WHEN picked.parks THEN NULL ELSE ${until}::timestamptz END,
          available_at = CASE WHEN picked.parks THEN o.available_at ELSE ${until}::timestamptz END
        FROM picked WHERE o.id = picked.id
        RETURNING o.id::text AS id, o.type, o.payload, o.attempts, o.last_error, picked.parks AS parked,
          ${sql.literal(epochMs("picked.available_at"))} AS due, picked.seq::float8 AS seq`
      const decoded = yield* decodeClaimRows(rows)
      const ordered = [...decoded].sort((a, b) => a.due - b.due || a.seq - b.seq)
      const toEvent = (row: typeof ordered[number]): OutboxEvent => ({
        id: row.id, type: row.type, payload: toValues(row.payload), attempts: row.attempts, last_error: row.last_error
      })
      return {
        events: ordered.filter((row) => !row.parked).map(toEvent),
        parked: ordered.filter((row) => row.parked).map(toEvent)
      }
    },
    Effect.catchTag("SqlError", sqlFailure)
  )

  const claim = Effect.fn("SqlOutbox.claim")((limit: number, policy: ClaimPolicy) =>
    claimDue(limit, policy, { firstInterruptedAlone: false })
  )
  const claimBatch = Effect.fn("SqlOutbox.claimBatch")((limit: number, policy: ClaimPolicy) =>
    claimDue(limit, policy, { firstInterruptedAlone: true })
  )

  const deliver = Effect.fnUntraced(
    function*(ids: ReadonlyArray<string>) {
      const valid = [...new Set(ids.filter(isUuid))]
      if (valid.length === 0) return
      const at = yield* now
      // The events' webhook deliveries (one per subscribed endpoint) are recorded in this same statement:
      // handled and fanned out at once, no round trip of their own (CONTRACT §13).
      yield* sql`WITH done AS (
          UPDATE outbox SET delivered_at = ${at}::timestamptz, claimed_until = NULL
          WHERE id IN (SELECT value::uuid FROM jsonb_array_elements_text(${jsonText(valid)}::jsonb)) AND delivered_at IS NULL
          RETURNING id, type, payload, created_at),
        ev AS (SELECT done.*, ${sql.literal(eventOrganisation("done"))} AS org FROM done)
        INSERT INTO webhook_deliveries
          (endpoint_id, event_id, event_type, organisation_id, form_id, event_at, status, next_attempt_at, created_at)
        SELECT w.id, ev.id, ev.type, ev.org, ${sql.literal(eventForm("ev", "ev.org"))}, ev.created_at, 'pending',
          ${at}::timestamptz, ${at}::timestamptz
        FROM ev JOIN webhook_endpoints w ON w.organisation_id = ev.org AND ${sql.literal(subscribed("w", "ev"))}
          -- An endpoint gets the events recorded since it was created, or since a replay of it reached back to.
          AND (w.created_at <= ev.created_at OR w.replay_since <= ev.created_at)
        WHERE ${sql.literal(notErased("ev"))}
        ON CONFLICT (endpoint_id, event_id) DO NOTHING`
    },
    Effect.catchTag("SqlError", sqlFailure)
  )

  const markDeliveredMany = Effect.fn("SqlOutbox.markDeliveredMany")((ids: ReadonlyArray<string>) => deliver(ids))
  const markDelivered = Effect.fn("SqlOutbox.markDelivered")((id: string) => deliver([id]))

  // Not counted again (the claim did); only while `attempt` is the latest and still outstanding, so a
  // holder whose lease ran out and whose event was claimed again (or parked) records nothing.
  const markFailed = Effect.fn("SqlOutbox.markFailed")(
    function*(id: string, attempt: number, error: string, retryAt: number | null) {
      if (!isUuid(id) || !Number.isInteger(attempt) || attempt < 1 || attempt > 2_147_483_647) return
      const at = yield* now
      yield* retryAt === null
        ? sql`UPDATE outbox SET last_error = ${error}, claimed_until = NULL, dead_at = ${at}::timestamptz
              WHERE id = ${id}::uuid AND attempts = ${attempt}::int AND claimed_until IS NOT NULL
                AND delivered_at IS NULL AND dead_at IS NULL`
        : sql`UPDATE outbox SET last_error = ${error}, claimed_until = NULL, available_at = ${new Date(retryAt)}::timestamptz
              WHERE id = ${id}::uuid AND attempts = ${attempt}::int AND claimed_until IS NOT NULL
                AND delivered_at IS NULL AND dead_at IS NULL`
    },
    Effect.catchTag("SqlError", sqlFailure)
  )

  const dead = sql`
    SELECT id::text AS id, type, payload, attempts, last_error FROM outbox
    WHERE dead_at IS NOT NULL AND delivered_at IS NULL ORDER BY dead_at, seq`.pipe(
    Effect.flatMap(toEvents),
    Effect.catchTag("SqlError", sqlFailure),
    Effect.withSpan("SqlOutbox.dead")
  )

  // Due at once; its attempts are kept, so the dispatcher's backoff decides what one more failure means.
  const retry = Effect.fn("SqlOutbox.retry")(
    function*(id: string) {
      if (!isUuid(id)) return false
      const at = yield* now
      const rows = yield* sql`
        UPDATE outbox SET dead_at = NULL, claimed_until = NULL, available_at = ${at}::timestamptz
        WHERE id = ${id}::uuid AND dead_at IS NOT NULL AND delivered_at IS NULL RETURNING id`
      return rows.length > 0
    },
    Effect.catchTag("SqlError", sqlFailure)
  )

  return Outbox.of({ claim, claimBatch, markDelivered, markDeliveredMany, markFailed, dead, retry })
})

export const SqlOutbox = {
  layer: Layer.effect(Outbox, makeSqlOutbox)
} as const
