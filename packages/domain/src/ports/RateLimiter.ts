/** Port: a sliding-window limiter shared by every process on the store. Time comes from Effect's Clock. */
import { Context, type Effect } from "effect"
import type { Unavailable } from "../Errors.js"

export interface RateLimitDecision {
  readonly allowed: boolean
  /** Requests left in the window after this one (0 when refused). */
  readonly remaining: number
  /** Milliseconds until the oldest counted request leaves the window (0 when none is counted). */
  readonly reset_ms: number
}

export class RateLimiter extends Context.Service<RateLimiter, {
  /** Counts one request under `key` when fewer than `limit` were counted in the last `windowMs`; refused ones do not count. */
  readonly hit: (key: string, limit: number, windowMs: number) => Effect.Effect<RateLimitDecision, Unavailable>
}>()("@forms/domain/RateLimiter") {}
