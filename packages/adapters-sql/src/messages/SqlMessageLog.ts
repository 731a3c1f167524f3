/**
 * `MessageLog` on PostgreSQL (or PGlite): the organiser's list and read, scoped by organisation; a retry is one
 * transaction (the row locked, changed, and its audit entry appended).
 */
import { type Actor, MessageLog, MessageNotRetryable } from "@forms/domain"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { appendAudit } from "../sql/appendAudit.js"
import { decodeRows } from "../sql/decodeRows.js"
import { newestFirst, toPage } from "../sql/paging.js"
import { sqlFailure } from "../sql/SqlFailure.js"
import { isUuid } from "../sql/sqlValues.js"
import { columns, MessageRow } from "./messageColumns.js"

const decodeMessages = decodeRows(MessageRow)

export const makeSqlMessageLog = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const cols = sql.literal(columns("m"))

  const list = Effect.fn("SqlMessageLog.list")(
    function*(organisationId: string, filter: Parameters<typeof MessageLog.Service["list"]>[1], page: Parameters<typeof MessageLog.Service["list"]>[2]) {
      const submissionId = filter.submission_id
      // A submission id that is no UUID names no message.
      if (submissionId !== undefined && !isUuid(submissionId)) return { items: [], more: false }
      const rows = yield* sql`SELECT ${cols} FROM messages m WHERE m.organisation_id = ${organisationId}
        AND (${filter.status ?? null}::text IS NULL OR m.status = ${filter.status ?? null})
        AND (${submissionId ?? null}::uuid IS NULL OR m.submission_id = ${submissionId ?? null}::uuid)
        AND ${newestFirst(sql, { created: "m.created_at", id: "m.id::text" }, page)}`.pipe(Effect.flatMap(decodeMessages))
      return toPage(rows, page.limit)
    },
    Effect.catchTag("SqlError", sqlFailure)
  )

  const find = Effect.fn("SqlMessageLog.find")(
    (organisationId: string, id: string) =>
      isUuid(id)
        ? sql`SELECT ${cols} FROM messages m WHERE m.id = ${id}::uuid AND m.organisation_id = ${organisationId}`.pipe(
          Effect.flatMap(decodeMessages),
          Effect.map((rows) => Option.fromUndefinedOr(rows[0]))
        )
        : Effect.succeed(Option.none()),
    Effect.catchTag("SqlError", sqlFailure)
  )

  const retry = Effect.fn("SqlMessageLog.retry")(
    (actor: Actor, id: string, status: "pending" | "held", at: number) =>
      !isUuid(id) ? Effect.succeed(Option.none()) : sql.withTransaction(Effect.gen(function*() {
        const [current] = yield* sql<{ readonly status: string }>`SELECT status FROM messages
          WHERE id = ${id}::uuid AND organisation_id = ${actor.organisation_id} FOR UPDATE`
        if (current === undefined) return Option.none()
        if (current.status !== "failed" && current.status !== "held") return yield* new MessageNotRetryable()
        const rows = yield* sql`UPDATE messages m SET status = ${status}, due_at = ${new Date(at)}::timestamptz,
            round_start = m.attempts
          WHERE m.id = ${id}::uuid RETURNING ${cols}`.pipe(Effect.flatMap(decodeMessages))
        yield* appendAudit(sql, actor, at, { action: "message.retried", resource_type: "message", resource_id: id })
        return Option.fromUndefinedOr(rows[0])
      })),
    Effect.catchTag("SqlError", sqlFailure)
  )

  return MessageLog.of({ list, find, retry })
})

export const SqlMessageLog = {
  layer: Layer.effect(MessageLog, makeSqlMessageLog)
} as const
