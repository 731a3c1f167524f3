/** Port: a sliding-window limiter shared by every process on the store. Time comes from Effect's Clock. */
import { Context, type Effect, type Option } from "effect"
import type { Unavailable } from "../shared/errors.js"

export interface RateLimitDecision {
  readonly allowed: boolean
  /** Requests left in the window after this one (0 when refused). */
  readonly remaining: number
  /** Milliseconds until the oldest counted request leaves the window (0 when none is counted). */
  readonly reset_ms: number
}

export interface SubmissionRef {
  readonly schema_id: string
  readonly id: string
}

export class RateLimiter extends Context.Service<RateLimiter, {
  /** Counts one request under `key` when fewer than `limit` were counted in the last `windowMs`; refused ones do not count. */
  readonly hit: (key: string, limit: number, windowMs: number) => Effect.Effect<RateLimitDecision, Unavailable>
  /**
   * `hit`, made only when submission `id` of form `schema_id` exists: none, and nothing counted, when it does not.
   * One step, so that a write to an unknown submission answers 404 without being counted and without a read first.
   */
  readonly hitForSubmission: (
    key: string,
    limit: number,
    windowMs: number,
    submission: SubmissionRef
  ) => Effect.Effect<Option.Option<RateLimitDecision>, Unavailable>
}>()("@forms/domain/RateLimiter") {}
