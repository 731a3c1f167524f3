/** The `OutboxAdmin` port on PostgreSQL: events by state (never payloads), scoped by `outbox.organisation_id`; a dead event retried. */
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import {
  type Actor,
  type CreatedKey,
  EventNotDead,
  OutboxAdmin,
  type OutboxEntry,
  OutboxEventNotFound,
  type OutboxState,
  type PageRequest
} from "@forms/domain"
import { sqlFailure } from "../sql/SqlFailure.js"
import { outboxChannel, wakeAfterCommit } from "../events/OutboxRecord.js"
import { epochMs, isUuid } from "../sql/sqlValues.js"
import { appendAudit } from "../sql/appendAudit.js"
import { newestFirst, toPage } from "../sql/paging.js"

/** Over `outbox o`: never the payload. */
const outboxEntryColumns = `o.id::text AS id, o.type, o.attempts, o.last_error, ${epochMs("o.created_at")} AS created_at,
  ${epochMs("o.available_at")} AS available_at, ${epochMs("o.dead_at")} AS dead_at`

const toOutboxEntry = (raw: unknown): OutboxEntry => {
  const row = raw as OutboxEntry
  return {
    id: row.id,
    type: row.type,
    attempts: row.attempts,
    last_error: row.last_error,
    created_at: row.created_at,
    available_at: row.available_at,
    dead_at: row.dead_at
  }
}

const stateCondition: Record<OutboxState, string> = {
  dead: "o.dead_at IS NOT NULL AND o.delivered_at IS NULL",
  pending: "o.dead_at IS NULL AND o.delivered_at IS NULL",
  delivered: "o.delivered_at IS NOT NULL"
}

export const makeSqlOutboxAdmin = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const wake = yield* wakeAfterCommit
  const columns = sql.literal(outboxEntryColumns)

  const list = Effect.fn("SqlOutboxAdmin.list")(
    (organisationId: string | undefined, state: OutboxState, page: PageRequest<CreatedKey>) =>
      sql`SELECT ${columns} FROM outbox o
        WHERE ${sql.literal(stateCondition[state])}
          AND (${organisationId ?? null}::text IS NULL OR o.organisation_id = ${organisationId ?? null}::text)
          AND ${newestFirst(sql, { created: "o.created_at", id: "o.id::text" }, page)}`.pipe(
        Effect.map((rows) => toPage(rows.map(toOutboxEntry), page.limit))
      ),
    Effect.catchTag("SqlError", sqlFailure)
  )

  const retry = Effect.fn("SqlOutboxAdmin.retry")(
    function*(actor: Actor | undefined, id: string, at: number) {
      if (!isUuid(id)) return yield* new OutboxEventNotFound()
      const organisationId = actor?.organisation_id ?? null
      const entry = yield* sql.withTransaction(Effect.gen(function*() {
        const [row] = yield* sql<{ readonly dead: boolean }>`
          SELECT (o.dead_at IS NOT NULL AND o.delivered_at IS NULL) AS dead FROM outbox o
          WHERE o.id = ${id}::uuid AND (${organisationId}::text IS NULL OR o.organisation_id = ${organisationId}::text)
          FOR UPDATE`
        if (row === undefined) return yield* new OutboxEventNotFound()
        if (!row.dead) return yield* new EventNotDead()
        // A fresh round: the attempts are kept (the dispatcher counts rounds by them), the event is due now.
        const [updated] = yield* sql`UPDATE outbox o SET dead_at = NULL, claimed_until = NULL, available_at = ${new Date(at)}::timestamptz
          WHERE o.id = ${id}::uuid RETURNING ${columns}`
        if (actor !== undefined) {
          yield* appendAudit(sql, actor, at, { action: "outbox_event.retried", resource_type: "outbox_event", resource_id: id })
        }
        yield* sql`SELECT pg_notify(${outboxChannel}, current_schema())`
        return toOutboxEntry(updated)
      }))
      yield* wake
      return entry
    },
    Effect.catchTag("SqlError", sqlFailure)
  )

  return OutboxAdmin.of({ list, retry })
})

export const SqlOutboxAdmin = {
  layer: Layer.effect(OutboxAdmin, makeSqlOutboxAdmin)
} as const
