/** Rows of the organiser tables as the domain's records, and the helpers every organiser write shares. */
import { Effect, Schema } from "effect"
import type { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { type Actor, type AuditRecord, InUse, type Unavailable } from "@forms/domain"
import { sqlFailure } from "../SqlFailure.js"
import { epochMs } from "../sqlValues.js"

export const eventColumns = `e.id, e.name, e.parent_event_id, ${epochMs("e.created_at")} AS created_at`
export const EventRow = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  parent_event_id: Schema.NullOr(Schema.String),
  created_at: Schema.Number
})

export const slotColumns = `t.id, t.event_id, e.name AS event_name, t.name, to_char(t.date, 'YYYY-MM-DD') AS date,
  to_char(t.start_time, 'HH24:MI') AS start_time, to_char(t.end_time, 'HH24:MI') AS end_time, t.capacity,
  (SELECT count(*)::int FROM slot_places p WHERE p.slot_id = t.id) AS holders`
export const SlotRow = Schema.Struct({
  id: Schema.String,
  event_id: Schema.String,
  event_name: Schema.String,
  name: Schema.String,
  date: Schema.String,
  start_time: Schema.String,
  end_time: Schema.String,
  capacity: Schema.NullOr(Schema.Number),
  holders: Schema.Number
})

export const sectionColumns = "s.id, s.event_id, s.name, s.type, s.show_in_registration, s.position"
export const SectionRow = Schema.Struct({
  id: Schema.String,
  event_id: Schema.String,
  name: Schema.String,
  type: Schema.String,
  show_in_registration: Schema.Boolean,
  position: Schema.Number
})

export const AuditRow = Schema.Struct({
  id: Schema.String,
  at: Schema.Number,
  api_key_id: Schema.NullOr(Schema.String),
  action: Schema.String,
  resource_type: Schema.String,
  resource_id: Schema.String
})

/** Decodes rows; a row of another shape is a defect (the schema and this code disagree). */
export const decodeRows = <S extends Schema.Top>(schema: S) => {
  const decode = Schema.decodeUnknownEffect(Schema.Array(schema))
  return (rows: ReadonlyArray<unknown>) =>
    Effect.orDie(decode(rows)) as Effect.Effect<ReadonlyArray<S["Type"]>>
}

/** Appends the audit entry of a write; called inside the write's transaction. */
export const appendAudit = (sql: SqlClient.SqlClient, actor: Actor, at: number, record: AuditRecord) =>
  sql`INSERT INTO audit_log (organisation_id, api_key_id, action, resource_type, resource_id, at)
    VALUES (${actor.organisation_id}, ${actor.api_key_id}, ${record.action}, ${record.resource_type},
            ${record.resource_id}, ${new Date(at)}::timestamptz)`

const sqlState = (error: SqlError): string | undefined => {
  const cause: unknown = error.reason.cause
  return typeof cause === "object" && cause !== null && "code" in cause && typeof cause.code === "string"
    ? cause.code
    : undefined
}

/**
 * For deletes: a foreign-key violation at commit (a reference added after the delete checked for
 * references, e.g. by a fixture load) is IN_USE, never a 500.
 */
export const deleteFailure = (error: SqlError): Effect.Effect<never, InUse | Unavailable> =>
  sqlState(error) === "23503" ? Effect.fail(new InUse()) : sqlFailure(error)

/** `$limit + 1` rows fetched: the extra one tells whether a row follows. */
export const toPage = <A>(rows: ReadonlyArray<A>, limit: number) => ({
  items: rows.slice(0, limit),
  more: rows.length > limit
})
