/** The limiter's answer as the RateLimit header fields need it (CONTRACT §8). */
import { Schema } from "effect"
import type { LimitPolicy } from "./LimitPolicy.js"
import type { RateLimitDecision } from "./RateLimiter.js"

export const RateLimitState = Schema.Struct({
  policy: Schema.String,
  limit: Schema.Int,
  window_seconds: Schema.Int,
  remaining: Schema.Int,
  /** Seconds until the oldest counted request leaves the window (0 when none is counted). */
  reset_seconds: Schema.Int,
  /** Other policies that apply to the same answer, listed after this one in the headers (uploads: `upload_bytes`). */
  others: Schema.optionalKey(Schema.Array(Schema.Struct({
    policy: Schema.String,
    limit: Schema.Int,
    window_seconds: Schema.Int,
    remaining: Schema.Int,
    reset_seconds: Schema.Int
  })))
})
export type RateLimitState = typeof RateLimitState.Type

export const toRateLimitState = (policy: LimitPolicy, limit: number, decision: RateLimitDecision): RateLimitState => ({
  policy: policy.name,
  limit,
  window_seconds: Math.ceil(policy.windowMs / 1000),
  remaining: Math.max(0, decision.remaining),
  reset_seconds: Math.max(0, Math.ceil(decision.reset_ms / 1000))
})
