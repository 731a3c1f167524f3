/** Rows of events, time slots and event sections as a registration reads them; the organiser's reads build on them. */
import { Schema } from "effect"

export const EventTreeRow = Schema.Struct({ id: Schema.String, name: Schema.String, parent_event_id: Schema.NullOr(Schema.String) })

/** What every read of a time slot selects after its id and event (`to_char` dates and times, holders counted). */
export const slotFields = {
  name: Schema.String,
  date: Schema.String,
  start_time: Schema.String,
  end_time: Schema.String,
  capacity: Schema.NullOr(Schema.Number),
  holders: Schema.Number
}

export const SlotRow = Schema.Struct({ id: Schema.String, event_id: Schema.String, ...slotFields })

/** A slot a submission chose, with its event's parent (the festival it belongs to). */
export const ChosenSlotRow = Schema.Struct({ ...SlotRow.fields, parent_event_id: Schema.NullOr(Schema.String) })

export const EventSectionRow = Schema.Struct({
  id: Schema.String,
  event_id: Schema.String,
  name: Schema.String,
  type: Schema.String,
  show_in_registration: Schema.Boolean,
  position: Schema.Number
})
