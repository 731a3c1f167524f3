/** The retry schedule of event delivery (CONTRACT §6): 1 s doubling, capped at 5 min, with jitter; dead after 10 failures. */

export interface BackoffPolicy {
  /** Delay after the first failure, in ms. */
  readonly baseMs: number
  /** No delay is longer than this, in ms. */
  readonly capMs: number
  /** Fraction of the delay that jitter may take off (0: none). */
  readonly jitter: number
  /** The failure with this number (counting the current one) parks the event as dead. */
  readonly maxAttempts: number
}

export const defaultBackoff: BackoffPolicy = {
  baseMs: 1_000,
  capMs: 5 * 60_000,
  jitter: 0.2,
  maxAttempts: 10
}

/**
 * The delay before the next attempt after `failedAttempts` failures (1-based), in whole ms.
 * `random01` in [0, 1) takes up to `jitter` of the nominal delay off, so retries of events that
 * failed together spread out, and no delay exceeds the nominal one or the cap.
 */
export const backoffDelay = (failedAttempts: number, random01: number, policy: BackoffPolicy = defaultBackoff): number => {
  const exponent = Math.max(0, Math.floor(failedAttempts) - 1)
  const nominal = Math.min(policy.capMs, policy.baseMs * 2 ** exponent)
  const r = Math.min(Math.max(random01, 0), 1)
  return Math.round(nominal * (1 - policy.jitter * r))
}

/** When a failed event is due again (epoch ms), or null: parked dead, with `failedAttempts` counting this failure. */
export const nextRetryAt = (
  now: number,
  failedAttempts: number,
  random01: number,
  policy: BackoffPolicy = defaultBackoff
): number | null => (failedAttempts >= policy.maxAttempts ? null : now + backoffDelay(failedAttempts, random01, policy))

/**
 * The number of an attempt within its round of `maxAttempts` (1-based), from its number among all
 * attempts counted (claims count them). A dead event that is queued again (`Outbox.retry` keeps its
 * count) starts a new round: attempt 11 is the first of the second round, so it gets the full
 * schedule again, dead at 20.
 */
export const attemptInRound = (attempt: number, policy: BackoffPolicy = defaultBackoff): number =>
  ((Math.max(1, Math.floor(attempt)) - 1) % Math.max(1, policy.maxAttempts)) + 1
