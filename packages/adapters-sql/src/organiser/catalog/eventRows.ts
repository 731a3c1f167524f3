/** Events as the organiser reads them, and the check every write under an event makes: the event is the organisation's. */
import { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import { AdminEvent } from "@forms/domain"
import { epochMs } from "../../sql/sqlValues.js"

/** Over `events e`. */
export const eventColumns = `e.id, e.name, e.parent_event_id, e.timezone,
  COALESCE(e.timezone, (SELECT p.timezone FROM events p WHERE p.id = e.parent_event_id), 'UTC') AS effective_timezone,
  ${epochMs("e.created_at")} AS created_at`
/** A row of `eventColumns` is the domain's record. */
export const EventRow = AdminEvent

/**
 * Whether the event exists in the organisation. Inside a write, `lock: "FOR SHARE"` keeps it until the
 * transaction ends: a delete of the event waits, and the write never lands under an event gone meanwhile.
 */
export const eventExists = (
  sql: SqlClient.SqlClient,
  organisationId: string,
  eventId: string,
  options: { readonly lock?: "FOR SHARE" } = {}
) =>
  Effect.map(
    sql`SELECT 1 FROM events WHERE id = ${eventId} AND organisation_id = ${organisationId} ${sql.literal(options.lock ?? "")}`,
    (rows) => rows.length > 0
  )
