/** How a step records lifecycle events: outbox rows and a NOTIFY in its transaction, an in-process wake-up after it. */
import { Effect, Option } from "effect"
import type { SqlClient } from "effect/sql"
import { type NewOutboxEvent, OutboxSignal } from "@forms/domain"
import { jsonText } from "../sql/sqlValues.js"

/**
 * The channel a dispatcher on a real server LISTENs on; notified in the transaction that adds events.
 * The payload is the writer's `current_schema()`, so that deployments sharing one database in different
 * schemas (the tests do) can ignore each other's notifications.
 */
export const outboxChannel = "forms_outbox"

/** The events of a step as one jsonb parameter: `[{ type, payload }, …]`, in the order they are recorded. */
export const eventsJson = (events: ReadonlyArray<NewOutboxEvent>): string =>
  jsonText(events.map((event) => ({ type: event.type, payload: event.payload })))

/**
 * Appends `events` (due at `at`) and notifies `forms_outbox`, in one statement; run it inside the step's
 * transaction. The rows get their `seq` in the order of `events`.
 */
export const recordEvents = Effect.fnUntraced(
  function*(sql: SqlClient.SqlClient, events: ReadonlyArray<NewOutboxEvent>, at: Date) {
    if (events.length === 0) return
    // The NOTIFY is delivered at commit only; a dispatcher listening elsewhere wakes up instead of polling.
    yield* sql`WITH recorded AS (
        INSERT INTO outbox (type, payload, available_at, created_at)
        SELECT e.event->>'type', e.event->'payload', ${at}::timestamptz, ${at}::timestamptz
        FROM jsonb_array_elements(${eventsJson(events)}::jsonb) WITH ORDINALITY AS e (event, n)
        ORDER BY e.n
      )
      SELECT pg_notify(${outboxChannel}, current_schema())`
  }
)

/**
 * The in-process wake-up to run after a step that recorded events has committed: `OutboxSignal.notify`
 * when a signal is in the context the port was built in (always on PGlite, which has no LISTEN; cheap
 * on a server too, where the dispatcher of this process then need not wait for the NOTIFY), else nothing.
 */
export const wakeAfterCommit: Effect.Effect<Effect.Effect<void>> = Effect.map(
  Effect.serviceOption(OutboxSignal),
  Option.match({ onNone: () => Effect.void, onSome: (signal) => signal.notify })
)
