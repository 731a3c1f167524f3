/**
 * The gauges read from the database: the outbox's pending and dead events, the age of the oldest pending one,
 * the database connections and the messages by status. One read serves every scrape for 5 seconds, so however often (and however many
 * scrapers) ask, each process queries at most once per 5 s. A failed read leaves the previous values.
 */
import { Clock, Duration, Effect, Metric } from "effect"
import { type MessageStatusLabel, messageStatuses, type OperationsReading, readOperationsGauges } from "@forms/adapters-sql"

export const gaugeCacheTtl = Duration.seconds(5)

const outboxEvents = (state: "pending" | "dead") =>
  Metric.gauge("forms_outbox_events", {
    description: "Outbox events by state: pending (not yet delivered to every handler) and dead (parked after their last attempt).",
    attributes: { state }
  })
const pending = outboxEvents("pending")
const dead = outboxEvents("dead")
const oldestAge = Metric.gauge("forms_outbox_oldest_pending_age_seconds", {
  description: "Age of the oldest pending outbox event, in seconds (0 when none is pending)."
})
const connections = (state: string) =>
  Metric.gauge("forms_db_pool_connections", {
    description: "Database connections of the server's pool by state (open: all of them; 1 on the embedded database).",
    attributes: { state }
  })

const messages = (status: MessageStatusLabel) =>
  Metric.gauge("forms_messages", {
    description: "Messages (email) by status: held (no mail server configured), pending, sent and failed.",
    attributes: { status }
  })

/** The gauges, for readers in process (the tests). */
export const databaseGauges = { pending, dead, oldestAge, connections, messages } as const

/** Makes the refresher: an effect that brings the gauges up to date, reading the database at most every 5 s. */
export const makeOperationsGauges = (options: { readonly embedded: boolean }) =>
  Effect.gen(function*() {
    const seen = new Set<string>()
    const apply = (reading: OperationsReading) =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        yield* Metric.update(pending, reading.outboxPending)
        yield* Metric.update(dead, reading.outboxDead)
        for (const status of messageStatuses) yield* Metric.update(messages(status), reading.messages[status])
        yield* Metric.update(oldestAge, reading.oldestPendingAt === null ? 0 : Math.max(0, now - reading.oldestPendingAt) / 1000)
        // A state seen before and absent now has no connection left in it.
        const current = new Map(reading.connections.map((c) => [c.state, c.count]))
        for (const state of seen) if (!current.has(state)) yield* Metric.update(connections(state), 0)
        for (const [state, count] of current) {
          seen.add(state)
          yield* Metric.update(connections(state), count)
        }
      })
    const read = readOperationsGauges(options).pipe(
      Effect.flatMap(apply),
      Effect.catchCause(() => Effect.logWarning("metrics: the database gauges could not be read"))
    )
    return yield* Effect.cachedWithTTL(read, gaugeCacheTtl)
  })
