/** A time slot as messages name it, read beside the rows that need it: its name, local date and times, its zone. */
import { Schema } from "effect"

/** The select list of a slot's text, `t` the time slot and `e` / `pe` its event and that event's parent. */
export const slotTextColumns = `t.name AS slot_name, to_char(t.date, 'YYYY-MM-DD') AS slot_date,
  to_char(t.start_time, 'HH24:MI') AS slot_start, to_char(t.end_time, 'HH24:MI') AS slot_end,
  COALESCE(e.timezone, pe.timezone, 'UTC') AS slot_zone`

/** The joins `slotTextColumns` reads, from a slot aliased `t`. */
export const slotTextJoins = `JOIN events e ON e.id = t.event_id LEFT JOIN events pe ON pe.id = e.parent_event_id`

export const SlotTextFields = {
  slot_name: Schema.String,
  slot_date: Schema.String,
  slot_start: Schema.String,
  slot_end: Schema.String,
  slot_zone: Schema.String
} as const

export const slotTextOf = (row: {
  readonly slot_name: string
  readonly slot_date: string
  readonly slot_start: string
  readonly slot_end: string
  readonly slot_zone: string
}) => ({ name: row.slot_name, date: row.slot_date, start_time: row.slot_start, end_time: row.slot_end, timezone: row.slot_zone })
