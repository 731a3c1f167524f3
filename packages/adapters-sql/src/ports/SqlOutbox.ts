/** The `Outbox` port on PostgreSQL: claims are leases, so a crashed dispatcher's events come back. */
import { Clock, Duration, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Outbox, type OutboxEvent } from "@forms/domain"
import { sqlFailure } from "../SqlFailure.js"
import { epochMs, isUuid, toValues } from "./SubmissionRow.js"

// Built once: each captures its definition stack, which a per-call `withSpan` would capture on every call.
const spanClaim = Effect.withSpan("SqlOutbox.claim")
const spanMarkDelivered = Effect.withSpan("SqlOutbox.markDelivered")
const spanMarkFailed = Effect.withSpan("SqlOutbox.markFailed")
const spanDead = Effect.withSpan("SqlOutbox.dead")
const spanRetry = Effect.withSpan("SqlOutbox.retry")

export interface SqlOutboxOptions {
  /** How long a claimed event stays invisible to other dispatchers; default 60 seconds. */
  readonly lease?: Duration.Input | undefined
}

const Row = Schema.Struct({
  id: Schema.String,
  type: Schema.Literals(["submission.submitted", "section.submitted"]),
  payload: Schema.Unknown,
  attempts: Schema.Number,
  last_error: Schema.NullOr(Schema.String)
})
const decodeRows = Schema.decodeUnknownEffect(Schema.Array(Row))

const toEvents = (rows: ReadonlyArray<unknown>) =>
  decodeRows(rows).pipe(
    Effect.map((decoded) => decoded.map((row): OutboxEvent => ({ ...row, payload: toValues(row.payload) }))),
    Effect.orDie
  )

export const makeSqlOutbox = (options: SqlOutboxOptions = {}) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const leaseMs = Duration.toMillis(Duration.fromInputUnsafe(options.lease ?? Duration.seconds(60)))
    const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

    // SKIP LOCKED: racing dispatchers take disjoint events; the lease moves them out of the due set.
    const claim = (limit: number) =>
      Effect.gen(function*() {
        if (limit <= 0) return []
        const at = yield* now
        const until = new Date(at.getTime() + leaseMs)
        const rows = yield* sql<{ readonly due: number; readonly seq: number }>`
          WITH picked AS (
            SELECT id, available_at, seq FROM outbox
            WHERE delivered_at IS NULL AND dead_at IS NULL AND available_at <= ${at}::timestamptz
            ORDER BY available_at, seq
            LIMIT ${limit}
            FOR UPDATE SKIP LOCKED)
          UPDATE outbox o SET available_at = ${until}::timestamptz
          FROM picked WHERE o.id = picked.id
          RETURNING o.id::text AS id, o.type, o.payload, o.attempts, o.last_error,
            ${sql.literal(epochMs("picked.available_at"))} AS due, picked.seq::float8 AS seq`
        const ordered = [...rows].sort((a, b) => a.due - b.due || a.seq - b.seq)
        return yield* toEvents(ordered)
      }).pipe(Effect.catchTag("SqlError", sqlFailure), spanClaim)

    const markDelivered = (id: string) =>
      Effect.gen(function*() {
        if (!isUuid(id)) return
        const at = yield* now
        yield* sql`UPDATE outbox SET delivered_at = ${at}::timestamptz WHERE id = ${id}::uuid AND delivered_at IS NULL`
      }).pipe(Effect.catchTag("SqlError", sqlFailure), spanMarkDelivered)

    const markFailed = (id: string, error: string, retryAt: number | null) =>
      Effect.gen(function*() {
        if (!isUuid(id)) return
        const at = yield* now
        yield* retryAt === null
          ? sql`UPDATE outbox SET attempts = attempts + 1, last_error = ${error}, dead_at = ${at}::timestamptz
                WHERE id = ${id}::uuid AND delivered_at IS NULL`
          : sql`UPDATE outbox SET attempts = attempts + 1, last_error = ${error},
                  available_at = ${new Date(retryAt)}::timestamptz
                WHERE id = ${id}::uuid AND delivered_at IS NULL`
      }).pipe(Effect.catchTag("SqlError", sqlFailure), spanMarkFailed)

    const dead = sql`
      SELECT id::text AS id, type, payload, attempts, last_error FROM outbox
      WHERE dead_at IS NOT NULL AND delivered_at IS NULL ORDER BY dead_at, seq`.pipe(
      Effect.flatMap(toEvents),
      Effect.catchTag("SqlError", sqlFailure),
      spanDead
    )

    // Due at once; its attempts are kept, so the dispatcher's backoff decides what one more failure means.
    const retry = (id: string) =>
      Effect.gen(function*() {
        if (!isUuid(id)) return false
        const at = yield* now
        const rows = yield* sql`
          UPDATE outbox SET dead_at = NULL, available_at = ${at}::timestamptz
          WHERE id = ${id}::uuid AND dead_at IS NOT NULL AND delivered_at IS NULL RETURNING id`
        return rows.length > 0
      }).pipe(Effect.catchTag("SqlError", sqlFailure), spanRetry)

    return Outbox.of({ claim, markDelivered, markFailed, dead, retry })
  })

export const SqlOutbox = {
  layer: (options: SqlOutboxOptions = {}) => Layer.effect(Outbox, makeSqlOutbox(options))
} as const
