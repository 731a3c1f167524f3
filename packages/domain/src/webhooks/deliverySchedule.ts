/** When a failed attempt is tried again (CONTRACT §13), pure: the schedule's next delay, jitter, Retry-After. */

/** Up to this share of a delay is taken off at random, so retries of many deliveries spread out. */
export const jitterShare = 0.2

/**
 * `Retry-After` in ms: delay-seconds, or an HTTP date relative to `now`; null when absent or malformed.
 */
export const parseRetryAfter = (value: string | null, now: number): number | null => {
  if (value === null) return null
  const text = value.trim()
  if (/^\d{1,10}$/.test(text)) return Number(text) * 1000
  const date = Date.parse(text)
  if (Number.isNaN(date) || !/[a-zA-Z]/.test(text)) return null
  return Math.max(0, date - now)
}

/**
 * After the failure of attempt `attemptInRound` (1-based) of a round: the time it is due again, or null
 * when it was the last (1 + n attempts for n delays). The delay loses up to 20 % at random (`random` in
 * [0, 1)); a `Retry-After` (ms) longer than that is honoured, capped at the schedule's longest delay.
 */
export const nextAttemptAt = (
  now: number,
  attemptInRound: number,
  scheduleMs: ReadonlyArray<number>,
  random: number,
  retryAfterMs: number | null
): number | null => {
  if (attemptInRound < 1 || attemptInRound > scheduleMs.length) return null
  const nominal = scheduleMs[attemptInRound - 1] ?? 0
  const jittered = Math.round(nominal * (1 - jitterShare * Math.min(Math.max(random, 0), 1)))
  const longest = Math.max(0, ...scheduleMs)
  const delay = retryAfterMs !== null && retryAfterMs > jittered ? Math.min(retryAfterMs, longest) : jittered
  return now + Math.max(delay, jittered)
}
