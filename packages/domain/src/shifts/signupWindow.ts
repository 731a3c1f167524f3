/**
 * A slot's sign-up window (CONTRACT §22): sign-up is open from `signup_opens_at` (none: always before) until
 * `signup_closes_at`, which defaults to the slot's start (no sign-up once a shift has begun). Half-open:
 * open at `signup_opens_at`, closed at the close.
 */

export interface SignupWindow {
  /** Epoch ms, or null. */
  readonly signup_opens_at: number | null
  readonly signup_closes_at: number | null
  readonly starts_at: number
}

/** Where `now` stands in the slot's window. */
export type SignupState = "open" | "not_open_yet" | "closed"

/** The moment sign-up closes: `signup_closes_at`, else the slot's start. */
export const signupClosesAt = (slot: SignupWindow): number => slot.signup_closes_at ?? slot.starts_at

export const signupState = (slot: SignupWindow, now: number): SignupState => {
  if (slot.signup_opens_at !== null && now < slot.signup_opens_at) return "not_open_yet"
  return now < signupClosesAt(slot) ? "open" : "closed"
}

export const slotsClosedMessage = "Sign-up for a chosen time slot is not open now."
