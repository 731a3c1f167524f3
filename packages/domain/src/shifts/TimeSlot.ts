/** A time slot as a public form lists it (CONTRACT §2, §15), and the places left on one. */

export interface TimeSlot {
  readonly id: string
  readonly name: string
  /** YYYY-MM-DD */
  readonly date: string
  /** HH:MM, 24 h */
  readonly start_time: string
  readonly end_time: string
  /** Rounded to two decimals; an end not after the start runs past midnight (equal: 24). */
  readonly duration_hours: number
  readonly event_id: string
  readonly event_name: string
  /** A positive integer, or null: unlimited (CONTRACT §15). */
  readonly capacity: number | null
  /** `capacity` minus the submitted submissions holding the slot (from every form), never below 0; null when unlimited. */
  readonly remaining: number | null
}

/** Places left (CONTRACT §15): `capacity` minus holders, never below 0; null when the slot is unlimited. */
export const remainingPlaces = (capacity: number | null, holders: number): number | null =>
  capacity === null ? null : Math.max(0, capacity - holders)
