/** Port: a sliding-window limiter shared by every process on the store. Time comes from Effect's Clock. */
import { Context, type Effect, type Option, Schema } from "effect"
import type { Unavailable } from "../shared/errors.js"

export const RateLimitDecision = Schema.Struct({
  allowed: Schema.Boolean,
  /** Requests left in the window after this one (0 when refused). */
  remaining: Schema.Number,
  /** Milliseconds until the oldest counted request leaves the window (0 when none is counted). */
  reset_ms: Schema.Number
})
export type RateLimitDecision = typeof RateLimitDecision.Type

/** A submission of a form, by ids. */
export const SubmissionRef = Schema.Struct({
  schema_id: Schema.String,
  id: Schema.String
})
export type SubmissionRef = typeof SubmissionRef.Type

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
  /**
   * A weighted window (e.g. bytes uploaded): the amounts added under `key` in the last `windowMs`, and the ms until
   * the oldest of them leaves it (0 when none is counted).
   */
  readonly amountUsed: (key: string, windowMs: number) => Effect.Effect<AmountUsage, Unavailable>
  /** Adds `amount` under `key` at the Clock's time, counted for `windowMs`. */
  readonly addAmount: (key: string, amount: number, windowMs: number) => Effect.Effect<void, Unavailable>
}>()("@forms/domain/RateLimiter") {}

export interface AmountUsage {
  readonly used: number
  readonly reset_ms: number
}
