/** The registration data a public form lists: time slots and registration sections (CONTRACT §2). */

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

export interface RegistrationSection {
  readonly id: string
  readonly name: string
  readonly type: string
  readonly position: number
}
