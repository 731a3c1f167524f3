/**
 * Slots' instants on PostgreSQL (CONTRACT §22): the zone of an event read under lock, and the instants of every
 * slot a zone change moves, recomputed by the domain's `slotInstants` and written in the caller's transaction.
 */
import { Effect, Schema } from "effect"
import type { SqlClient } from "effect/sql"
import { effectiveTimeZone, slotInstants } from "@forms/domain/internal"
import { decodeRows } from "../sql/decodeRows.js"

const ZoneRow = Schema.Struct({ timezone: Schema.NullOr(Schema.String), parent_event_id: Schema.NullOr(Schema.String) })
const decodeZones = decodeRows(ZoneRow)

/**
 * The zone of an event's slots, its row and its parent's locked FOR SHARE until the transaction ends: a zone
 * change (which locks the event FOR UPDATE) waits for this write and then recomputes what it wrote.
 */
export const lockedEventZone = Effect.fnUntraced(function*(sql: SqlClient.SqlClient, eventId: string) {
  const [event] = yield* sql`SELECT timezone, parent_event_id FROM events WHERE id = ${eventId} FOR SHARE`.pipe(
    Effect.flatMap(decodeZones)
  )
  if (event === undefined) return effectiveTimeZone(null, null)
  if (event.timezone !== null || event.parent_event_id === null) return effectiveTimeZone(event.timezone, null)
  const [parent] = yield* sql`SELECT timezone, parent_event_id FROM events WHERE id = ${event.parent_event_id} FOR SHARE`.pipe(
    Effect.flatMap(decodeZones)
  )
  return effectiveTimeZone(null, parent?.timezone ?? null)
})

const SlotClockRow = Schema.Struct({
  id: Schema.String,
  date: Schema.String,
  start_time: Schema.String,
  end_time: Schema.String,
  zone: Schema.String
})
const decodeClocks = decodeRows(SlotClockRow)

/**
 * Recomputes the instants of the slots of `eventIds` and of their children, each in its event's zone as the
 * transaction sees it now; false (nothing written) when one would not end after it starts.
 */
export const recomputeSlotInstants = Effect.fnUntraced(function*(sql: SqlClient.SqlClient, eventIds: ReadonlyArray<string>) {
  const rows = yield* sql`SELECT t.id, to_char(t.date, 'YYYY-MM-DD') AS date, to_char(t.start_time, 'HH24:MI:SS') AS start_time,
      to_char(t.end_time, 'HH24:MI:SS') AS end_time, COALESCE(e.timezone, p.timezone, 'UTC') AS zone
    FROM time_slots t JOIN events e ON e.id = t.event_id LEFT JOIN events p ON p.id = e.parent_event_id
    WHERE t.event_id = ANY(${[...eventIds]}::text[]) OR e.parent_event_id = ANY(${[...eventIds]}::text[])
    ORDER BY t.id COLLATE "C"`.pipe(Effect.flatMap(decodeClocks))
  const ids: Array<string> = []
  const starts: Array<string> = []
  const ends: Array<string> = []
  for (const row of rows) {
    const instants = slotInstants(row, row.zone)
    if (instants === undefined) return false
    ids.push(row.id)
    starts.push(new Date(instants.starts_at).toISOString())
    ends.push(new Date(instants.ends_at).toISOString())
  }
  if (ids.length === 0) return true
  yield* sql`UPDATE time_slots t SET starts_at = u.starts_at, ends_at = u.ends_at
    FROM unnest(${ids}::text[], ${starts}::timestamptz[], ${ends}::timestamptz[]) AS u (id, starts_at, ends_at)
    WHERE t.id = u.id AND (t.starts_at, t.ends_at) IS DISTINCT FROM (u.starts_at, u.ends_at)`
  return true
})
