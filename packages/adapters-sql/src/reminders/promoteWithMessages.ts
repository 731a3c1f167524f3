/**
 * Inside a transaction that frees places (an erasure, a capacity raised, a fixture): `forms_promote` confirms the
 * earliest waiting places (migration 0025, with its `place.promoted` events), and each promotion's `promotion`
 * message, to the confirmation address of the form, is recorded in the same transaction. Every path that calls
 * `forms_promote` calls it through here.
 */
import { composePromotion, MessagesConfig } from "@forms/domain"
import { Effect, Schema } from "effect"
import type { SqlClient } from "effect/sql"
import { decodeRows } from "../sql/decodeRows.js"
import { insertOwnedMessages, owned } from "./ownedMessages.js"
import { SlotTextFields, slotTextColumns, slotTextJoins, slotTextOf } from "./slotText.js"

const PromotedRow = Schema.Struct({
  submission_id: Schema.String,
  slot_id: Schema.String,
  organisation_id: Schema.String,
  form_name: Schema.String,
  to_field: Schema.NullOr(Schema.String),
  to_value: Schema.Unknown,
  ...SlotTextFields
})
const decodePromoted = decodeRows(PromotedRow)

/** Answers the places promoted (slot and submission), in the order `forms_promote` made them. */
export const promoteWithMessages = Effect.fnUntraced(function*(
  sql: SqlClient.SqlClient,
  slotIds: ReadonlyArray<string>,
  at: Date
) {
  if (slotIds.length === 0) return []
  const { sending } = yield* MessagesConfig
  const promoted = yield* sql`WITH promoted AS MATERIALIZED (
      SELECT slot_id, submission_id, row_number() OVER () AS n FROM forms_promote(${[...slotIds]}::text[], ${at}::timestamptz)
    )
    SELECT p.submission_id::text AS submission_id, p.slot_id, f.organisation_id, f.name AS form_name,
      f.messages->'confirmation'->>'to_field' AS to_field,
      s.values->(f.messages->'confirmation'->>'to_field') AS to_value, ${sql.literal(slotTextColumns)}
    FROM promoted p
      JOIN submissions s ON s.id = p.submission_id
      JOIN form_schemas f ON f.id = s.schema_id
      JOIN time_slots t ON t.id = p.slot_id
      ${sql.literal(slotTextJoins)}
    ORDER BY p.n`.pipe(Effect.flatMap(decodePromoted))
  const messages = promoted.flatMap((row) => {
    const message = composePromotion({
      submission_id: row.submission_id,
      slot_id: row.slot_id,
      form_name: row.form_name,
      slot: slotTextOf(row),
      to_field: row.to_field,
      to_value: row.to_value
    }, sending)
    return message === undefined
      ? []
      : [owned({ organisation_id: row.organisation_id, submission_id: row.submission_id, engagement_id: null }, message)]
  })
  if (messages.length > 0) yield* insertOwnedMessages(sql, messages, at)
  return promoted.map((row) => ({ slot_id: row.slot_id, submission_id: row.submission_id }))
})
