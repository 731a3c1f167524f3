/** A time slot as a public form lists it (CONTRACT §2, §15), and the places left on one. */
import { Schema } from "effect"

export const TimeSlot = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  /** YYYY-MM-DD */
  date: Schema.String,
  /** HH:MM, 24 h */
  start_time: Schema.String,
  end_time: Schema.String,
  /** The start and end as instants (epoch ms), in the event's zone (CONTRACT §22). */
  starts_at: Schema.Number,
  ends_at: Schema.Number,
  /** `ends_at − starts_at` in hours, rounded to two decimals (23 or 25 across a daylight-saving night). */
  duration_hours: Schema.Number,
  event_id: Schema.String,
  event_name: Schema.String,
  /** The sign-up window as stored (epoch ms or null; a null close means the slot's start), CONTRACT §22. */
  signup_opens_at: Schema.NullOr(Schema.Number),
  signup_closes_at: Schema.NullOr(Schema.Number),
  /** A positive integer, or null: unlimited (CONTRACT §15). */
  capacity: Schema.NullOr(Schema.Number),
  /** `capacity` minus the confirmed places on the slot (from every form), never below 0; null when unlimited. */
  remaining: Schema.NullOr(Schema.Number),
  /** A full slot gives waitlisted places (CONTRACT §22). */
  waitlist: Schema.Boolean,
  /** Places waiting (expired ones not counted). */
  waitlisted: Schema.Number
})
export type TimeSlot = typeof TimeSlot.Type

/** Places left (CONTRACT §15): `capacity` minus holders, never below 0; null when the slot is unlimited. */
export const remainingPlaces = (capacity: number | null, holders: number): number | null =>
  capacity === null ? null : Math.max(0, capacity - holders)
