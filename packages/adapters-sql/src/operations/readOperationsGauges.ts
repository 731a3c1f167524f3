/**
 * What the operations gauges need from the database, in one round of three statements: the outbox's pending
 * and dead events and the oldest pending one (both counts read the outbox's partial indexes), the server's
 * connections as PostgreSQL sees them, and the messages by status. Counts only: no id, value or address leaves here.
 */
import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeRows } from "../sql/decodeRows.js"

export interface ConnectionCount {
  /** `open` (all of them), and on PostgreSQL one per session state: `active`, `idle`, `idle_in_transaction`, … */
  readonly state: string
  readonly count: number
}

export interface OperationsReading {
  readonly outboxPending: number
  readonly outboxDead: number
  /** When the oldest pending event was recorded (epoch ms), or null when none is pending. */
  readonly oldestPendingAt: number | null
  readonly connections: ReadonlyArray<ConnectionCount>
  /** Messages (email) by status: every status, 0 when none has it. */
  readonly messages: Readonly<Record<MessageStatusLabel, number>>
}

/** The statuses of messages, each a label value of `forms_messages`. */
export const messageStatuses = ["held", "pending", "sent", "failed"] as const
export type MessageStatusLabel = (typeof messageStatuses)[number]

const OutboxRow = Schema.Struct({
  pending: Schema.Number,
  dead: Schema.Number,
  oldest_ms: Schema.NullOr(Schema.Number)
})
const ConnectionRow = Schema.Struct({ state: Schema.String, count: Schema.Number })
const MessageCountRow = Schema.Struct({ status: Schema.String, count: Schema.Number })

/** PostgreSQL's session states as label values: `idle in transaction` → `idle_in_transaction`. */
const stateLabel = (state: string): string => state.replace(/[^a-z]+/g, "_").replace(/^_|_$/g, "") || "unknown"

/**
 * `embedded`: PGlite is one session of one process, reported as one open connection. On PostgreSQL the sessions
 * named `forms-portal` on this database (the pools of every server process on it: the database's view).
 */
export const readOperationsGauges = (options: { readonly embedded: boolean }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [outbox] = yield* sql`
      SELECT (SELECT count(*) FROM outbox WHERE delivered_at IS NULL AND dead_at IS NULL)::int AS pending,
             (SELECT count(*) FROM outbox WHERE dead_at IS NOT NULL)::int AS dead,
             (SELECT (EXTRACT(EPOCH FROM min(created_at)) * 1000)::float8 FROM outbox
               WHERE delivered_at IS NULL AND dead_at IS NULL) AS oldest_ms`.pipe(Effect.flatMap(decodeRows(OutboxRow)))
    const connections: ReadonlyArray<ConnectionCount> = options.embedded
      ? [{ state: "open", count: 1 }]
      : yield* sql`
          SELECT coalesce(state, 'unknown') AS state, count(*)::int AS count FROM pg_stat_activity
          WHERE application_name = 'forms-portal' AND datname = current_database() GROUP BY 1 ORDER BY 1`.pipe(
          Effect.flatMap(decodeRows(ConnectionRow)),
          Effect.map((rows) => [
            { state: "open", count: rows.reduce((total, row) => total + row.count, 0) },
            ...rows.map((row) => ({ state: stateLabel(row.state), count: row.count }))
          ])
        )
    const byStatus = yield* sql`SELECT status, count(*)::int AS count FROM messages GROUP BY status`.pipe(
      Effect.flatMap(decodeRows(MessageCountRow))
    )
    const messages = Object.fromEntries(messageStatuses.map((status) =>
      [status, byStatus.find((row) => row.status === status)?.count ?? 0]
    )) as Record<MessageStatusLabel, number>
    return {
      messages,
      outboxPending: outbox?.pending ?? 0,
      outboxDead: outbox?.dead ?? 0,
      oldestPendingAt: outbox?.oldest_ms ?? null,
      connections
    } satisfies OperationsReading
  })
