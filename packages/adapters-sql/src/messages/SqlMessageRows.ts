/**
 * `MessageRows` on PostgreSQL (or PGlite): a claim is one short statement (`FOR UPDATE SKIP LOCKED`, so racing
 * senders take disjoint messages; each taken message gets its attempt counted and a lease as its `due_at`),
 * committed before the mail server is waited on; a settle is another, a no-op when the attempt was claimed again.
 */
import { type Message, MessageRows } from "@forms/domain"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeRows } from "../sql/decodeRows.js"
import { sqlFailure } from "../sql/SqlFailure.js"
import { epochMs, isUuid } from "../sql/sqlValues.js"

const MessageRow = Schema.Struct({
  id: Schema.String,
  organisation_id: Schema.String,
  submission_id: Schema.NullOr(Schema.String),
  kind: Schema.Literals(["confirmation", "notification", "reminder", "resume_link", "portal_link", "section_reminder", "promotion"]),
  to: Schema.String,
  subject: Schema.String,
  body: Schema.String,
  status: Schema.Literals(["held", "pending", "sent", "failed"]),
  attempts: Schema.Number,
  last_error: Schema.NullOr(Schema.String),
  created_at: Schema.Number,
  sent_at: Schema.NullOr(Schema.Number)
})
const decodeMessages = decodeRows(MessageRow)

const columns = (alias: string) => `${alias}.id::text AS id, ${alias}.organisation_id, ${alias}.submission_id::text AS submission_id,
  ${alias}.kind, ${alias}.to_address AS to, ${alias}.subject, ${alias}.body, ${alias}.status, ${alias}.attempts,
  ${alias}.last_error, ${epochMs(`${alias}.created_at`)} AS created_at, ${epochMs(`${alias}.sent_at`)} AS sent_at`

export const makeSqlMessageRows = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const returning = sql.literal(columns("m"))

  const claimDue = Effect.fn("SqlMessageRows.claimDue")(
    (now: number, leaseMs: number, limit: number) =>
      sql`WITH picked AS (
            SELECT id FROM messages
            WHERE status = 'pending' AND due_at <= ${new Date(now)}::timestamptz
            ORDER BY due_at, seq
            LIMIT ${Math.max(0, limit)}
            FOR UPDATE SKIP LOCKED)
          UPDATE messages m SET attempts = m.attempts + 1, due_at = ${new Date(now + Math.max(0, leaseMs))}::timestamptz
          FROM picked WHERE m.id = picked.id
          RETURNING ${returning}`.pipe(
        Effect.flatMap(decodeMessages),
        Effect.map((rows): ReadonlyArray<Message> => rows)
      ),
    Effect.catchTag("SqlError", sqlFailure)
  )

  const settle = Effect.fn("SqlMessageRows.settle")(
    (id: string, attempt: number, settlement: Parameters<typeof MessageRows.Service["settle"]>[2], now: number) => {
      if (!isUuid(id)) return Effect.void
      const at = new Date(now)
      const where = sql`id = ${id}::uuid AND attempts = ${attempt} AND status = 'pending'`
      switch (settlement._tag) {
        case "Sent":
          return sql`UPDATE messages SET status = 'sent', sent_at = ${at}::timestamptz, last_error = NULL WHERE ${where}`.pipe(Effect.asVoid)
        case "Retry":
          return sql`UPDATE messages SET due_at = ${new Date(settlement.at)}::timestamptz, last_error = ${settlement.reason}
            WHERE ${where}`.pipe(Effect.asVoid)
        case "Failed":
          return sql`UPDATE messages SET status = 'failed', last_error = ${settlement.reason} WHERE ${where}`.pipe(Effect.asVoid)
      }
    },
    Effect.catchTag("SqlError", sqlFailure)
  )

  const find = Effect.fn("SqlMessageRows.find")(
    (id: string) =>
      isUuid(id)
        ? sql`SELECT ${returning} FROM messages m WHERE m.id = ${id}::uuid`.pipe(
          Effect.flatMap(decodeMessages),
          Effect.map((rows): Message | undefined => rows[0])
        )
        : Effect.succeed(undefined),
    Effect.catchTag("SqlError", sqlFailure)
  )

  return MessageRows.of({ claimDue, settle, find })
})

export const SqlMessageRows = {
  layer: Layer.effect(MessageRows, makeSqlMessageRows)
} as const
