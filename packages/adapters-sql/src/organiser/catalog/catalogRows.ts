/** Rows of the organiser tables as the domain's records, and the helpers every organiser write shares. */
import { Schema } from "effect"
import { epochMs } from "../../sql/sqlValues.js"

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
