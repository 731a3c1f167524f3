/** A time slot on the wire, as the public list and the organiser's show it: its places with `capacity` and `remaining`. */
import { Schema } from "effect"
import type { TimeSlot } from "@forms/domain"
import { Capacity, DurationHours, Remaining } from "../http/wireNumbers.js"

export const TimeSlotWire = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  date: Schema.String,
  start_time: Schema.String,
  end_time: Schema.String,
  duration_hours: DurationHours,
  event_id: Schema.String,
  event_name: Schema.String,
  capacity: Schema.NullOr(Capacity).annotate({
    description: "Places on the slot: a whole number from 1 to 1,000,000, or null when unlimited."
  }),
  remaining: Schema.NullOr(Remaining).annotate({
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
