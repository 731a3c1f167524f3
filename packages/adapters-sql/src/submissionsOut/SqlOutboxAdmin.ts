/** The `OutboxAdmin` port on PostgreSQL: events by state (never payloads), scoped by `outbox.organisation_id`; a dead event retried. */
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { type Actor, type CreatedKey, EventNotDead, OutboxAdmin, OutboxEventNotFound, type OutboxState } from "@forms/domain"
import { sqlFailure } from "../sql/SqlFailure.js"
import { outboxChannel, wakeAfterCommit } from "../events/OutboxRecord.js"
import { outboxEntryColumns, toOutboxEntry } from "./adminSubmissionRows.js"
import { isUuid } from "../sql/sqlValues.js"
import { appendAudit } from "../sql/appendAudit.js"
import { toPage } from "../sql/paging.js"

const stateCondition: Record<OutboxState, string> = {
  dead: "o.dead_at IS NOT NULL AND o.delivered_at IS NULL",
  pending: "o.dead_at IS NULL AND o.delivered_at IS NULL",
  delivered: "o.delivered_at IS NOT NULL"
}

export const makeSqlOutboxAdmin = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const wake = yield* wakeAfterCommit
  const columns = sql.literal(outboxEntryColumns)

  const list = (organisationId: string | undefined, state: OutboxState, page: { limit: number; after: CreatedKey | undefined }) => {
    const after = page.after
    const at = after === undefined ? null : new Date(after.created_at)
    return sql`SELECT ${columns} FROM outbox o
      WHERE ${sql.literal(stateCondition[state])}
        AND (${organisationId ?? null}::text IS NULL OR o.organisation_id = ${organisationId ?? null}::text)
        AND (${after === undefined} OR o.created_at < ${at}::timestamptz
          OR (o.created_at = ${at}::timestamptz AND o.id::text COLLATE "C" < ${after?.id ?? null}::text COLLATE "C"))
      ORDER BY o.created_at DESC, o.id::text COLLATE "C" DESC LIMIT ${page.limit + 1}`.pipe(
      Effect.map((rows) => toPage(rows.map(toOutboxEntry), page.limit)),
      Effect.catchTag("SqlError", sqlFailure)
    )
  }

  const retry = (actor: Actor | undefined, id: string, at: number) =>
    Effect.gen(function*() {
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
    }).pipe(Effect.catchTag("SqlError", sqlFailure), Effect.withSpan("SqlOutboxAdmin.retry"))

  return OutboxAdmin.of({
    list,
    retry
  })
})

export const SqlOutboxAdmin = {
  layer: Layer.effect(OutboxAdmin, makeSqlOutboxAdmin)
} as const
