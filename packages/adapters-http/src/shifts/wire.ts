/** A time slot on the wire, as the public list and the organiser's show it: its places with `capacity` and `remaining`. */
import { Schema } from "effect"
import type { TimeSlot } from "@forms/domain"
import { Capacity, DurationHours, Remaining } from "../http/wireNumbers.js"
import { iso, isoOrNull } from "../http/wireShapes.js"

export const TimeSlotWire = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  date: Schema.String,
  start_time: Schema.String,
  end_time: Schema.String,
  starts_at: Schema.String.annotate({
    description: "The start as an instant (ISO 8601 UTC): the date and start time read in the event's time zone."
  }),
  ends_at: Schema.String.annotate({
    description: "The end as an instant (ISO 8601 UTC), on the slot's date or the next day when the end time is not after the start time."
  }),
  duration_hours: DurationHours,
  signup_opens_at: Schema.NullOr(Schema.String).annotate({
    description: "When sign-up opens (ISO 8601 UTC), or null: open until it closes."
  }),
  signup_closes_at: Schema.NullOr(Schema.String).annotate({
    description: "When sign-up closes (ISO 8601 UTC) as stored, or null: when the slot starts."
  }),
  event_id: Schema.String,
  event_name: Schema.String,
  capacity: Schema.NullOr(Capacity).annotate({
    description: "Places on the slot: a whole number from 1 to 1,000,000, or null when unlimited."
  }),
  remaining: Schema.NullOr(Remaining).annotate({
    description: "Places left: capacity minus the confirmed places on the slot (from every form), never below 0; null when unlimited."
  }),
  waitlist: Schema.Boolean.annotate({ description: "Whether a full slot gives waitlisted places." }),
  waitlisted: Remaining.annotate({ description: "Places waiting on the slot (none once it has started: they expired)." })
}).annotate({ identifier: "TimeSlot" })

export const toTimeSlotWire = (slot: TimeSlot): typeof TimeSlotWire.Type => ({
  id: slot.id,
  name: slot.name,
  date: slot.date,
  start_time: slot.start_time,
  end_time: slot.end_time,
  starts_at: iso(slot.starts_at),
  ends_at: iso(slot.ends_at),
  duration_hours: slot.duration_hours,
  signup_opens_at: isoOrNull(slot.signup_opens_at),
  signup_closes_at: isoOrNull(slot.signup_closes_at),
  event_id: slot.event_id,
  event_name: slot.event_name,
  capacity: slot.capacity,
  remaining: slot.remaining,
  waitlist: slot.waitlist,
  waitlisted: slot.waitlisted
})
