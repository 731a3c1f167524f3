/**
 * `MessageRows` on PostgreSQL (or PGlite): a claim is one short statement (`FOR UPDATE SKIP LOCKED`, so racing
 * senders take disjoint messages; each taken message gets its attempt counted and a lease as its `due_at`),
 * committed before the mail server is waited on; a settle is another, a no-op when the attempt was claimed again.
 */
import { type ClaimedMessage, type Message, MessageLink, MessageRows } from "@forms/domain"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { decodeRows } from "../sql/decodeRows.js"
import { sqlFailure } from "../sql/SqlFailure.js"
import { isUuid } from "../sql/sqlValues.js"
import { columns, MessageRow } from "./messageColumns.js"

const decodeMessages = decodeRows(MessageRow)
const decodeClaims = decodeRows(Schema.Struct({
  ...MessageRow.fields,
  link_kind: Schema.NullOr(MessageLink.fields.kind),
  link_token: Schema.NullOr(Schema.String),
  link_page_token: Schema.NullOr(Schema.String)
}))

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
          RETURNING ${returning}, m.link_kind, m.link_token,
            (SELECT f.public_token FROM form_schemas f WHERE f.id = m.link_schema_id) AS link_page_token`.pipe(
        Effect.flatMap(decodeClaims),
        Effect.map((rows): ReadonlyArray<ClaimedMessage> =>
          rows.map(({ link_kind, link_page_token, link_token, ...message }) => ({
            ...message,
            link: link_kind === null || link_token === null ? null : { kind: link_kind, page_token: link_page_token, sealed: link_token }
          })))
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
