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
  /** Rounded to two decimals; an end not after the start runs past midnight (equal: 24). */
  duration_hours: Schema.Number,
  event_id: Schema.String,
  event_name: Schema.String,
  /** A positive integer, or null: unlimited (CONTRACT §15). */
  capacity: Schema.NullOr(Schema.Number),
  /** `capacity` minus the submitted submissions holding the slot (from every form), never below 0; null when unlimited. */
  remaining: Schema.NullOr(Schema.Number)
})
export type TimeSlot = typeof TimeSlot.Type

/** Places left (CONTRACT §15): `capacity` minus holders, never below 0; null when the slot is unlimited. */
export const remainingPlaces = (capacity: number | null, holders: number): number | null =>
  capacity === null ? null : Math.max(0, capacity - holders)
