/** A time slot on the wire, as the public list and the organiser's show it: its places with `capacity` and `remaining`. */
import { Schema } from "effect"
import type { TimeSlot } from "@forms/domain"

export const TimeSlotWire = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  date: Schema.String,
  start_time: Schema.String,
  end_time: Schema.String,
  duration_hours: Schema.Number,
  event_id: Schema.String,
  event_name: Schema.String,
  capacity: Schema.NullOr(Schema.Int).annotate({
    description: "Places on the slot: a positive integer, or null when unlimited."
  }),
  remaining: Schema.NullOr(Schema.Int).annotate({
    description: "Places left: capacity minus the submitted submissions holding the slot (from every form), never below 0; null when unlimited."
  })
}).annotate({ identifier: "TimeSlot" })

export const toTimeSlotWire = (slot: TimeSlot): typeof TimeSlotWire.Type => ({
  id: slot.id,
  name: slot.name,
  date: slot.date,
  start_time: slot.start_time,
  end_time: slot.end_time,
  duration_hours: slot.duration_hours,
  event_id: slot.event_id,
  event_name: slot.event_name,
  capacity: slot.capacity,
  remaining: slot.remaining
})
