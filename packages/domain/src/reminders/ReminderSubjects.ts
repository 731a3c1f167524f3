/**
 * What a scheduled reminder or a message about a place or a portal needs to be composed: the rows the stores read
 * when a reminder falls due or a place is promoted, in plain data (no id of the store's own beyond the row's).
 */

/** A time slot as a message names it: its name and its local date and times in its event's zone. */
export interface SlotText {
  readonly name: string
  /** `YYYY-MM-DD`, local to `timezone`. */
  readonly date: string
  /** `HH:MM`, local. */
  readonly start_time: string
  readonly end_time: string
  /** The IANA zone the date and times are local to. */
  readonly timezone: string
}

/** A shift reminder recorded at submit: to the confirmation address, `hours_before` the slot starts. */
export interface ShiftReminderPlan {
  readonly slot_id: string
  readonly hours_before: number
  /** The confirmation address (passed the `email` rule at submit). */
  readonly to: string
}

/** A scheduled shift reminder whose moment has come, its place confirmed and its slot not started. */
export interface DueShiftReminder {
  readonly submission_id: string
  readonly slot_id: string
  readonly hours_before: number
  readonly to: string
  readonly form_name: string
  readonly slot: SlotText
}

/** A waitlisted place just confirmed, with what its `promotion` message says. */
export interface PromotedPlace {
  readonly submission_id: string
  readonly slot_id: string
  readonly form_name: string
  readonly slot: SlotText
  /** The form's confirmation field, when it asks for a confirmation. */
  readonly to_field: string | null
  /** The submission's value of that field (unchecked: the composer checks it). */
  readonly to_value: unknown
}

/** A pending, unlocked section whose reminder moment (`hours_before` its `due_at`) has come. */
export interface DueSectionReminder {
  readonly engagement_id: string
  readonly section_id: string
  readonly section_name: string
  readonly event_name: string
  readonly artist_name: string
  /** The engagement's `contact_email` (an organiser typed it; it passed the `email` rule). */
  readonly to: string
  /** Epoch ms. */
  readonly due_at: number
  readonly hours_before: number
}
