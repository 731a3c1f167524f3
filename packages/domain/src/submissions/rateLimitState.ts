/** The limiter's decision as the RateLimit headers need it (CONTRACT §8). */
import type { RateLimitState } from "../Errors.js"
import type { RateLimitDecision } from "../ports/RateLimiter.js"

export const submitPolicy = "submit"
export const submitWindowMs = 3_600_000

/** The limiter key of a submit: per form schema (a rotated token shares its budget), per client IP. */
export const submitRateLimitKey = (schemaId: string, clientIp: string): string => `submit:${schemaId}:${clientIp}`

export const toRateLimitState = (
  policy: string,
  limit: number,
  windowMs: number,
  decision: RateLimitDecision
): RateLimitState => ({
  policy,
  limit,
  window_seconds: Math.ceil(windowMs / 1000),
  remaining: Math.max(0, decision.remaining),
  reset_seconds: Math.max(0, Math.ceil(decision.reset_ms / 1000))
})
