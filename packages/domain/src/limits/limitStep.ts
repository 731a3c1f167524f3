/** The limit step of a use case (CONTRACT §8): counts the request, or refuses it with 429. */
import { Effect, Option } from "effect"
import { RateLimited } from "./errors.js"
import { SubmissionNotFound } from "../publicForms/errors.js"
import type { RateLimitDecision, RateLimiter, SubmissionRef } from "./RateLimiter.js"
import { Refused } from "./Limited.js"
import { type Client, limitKey, type LimitPolicy } from "./LimitPolicy.js"
import { type RateLimitState, toRateLimitState } from "./RateLimitState.js"

/**
 * The state for the headers, or undefined for an exempt client (counted by no limit). A refused request is
 * not counted (the port's rule) and fails with `Refused(RateLimited)`.
 */
export const limitStep = (limiter: typeof RateLimiter.Service) =>
  Effect.fnUntraced(function*(policy: LimitPolicy, limit: number, scope: string, client: Client) {
    if (client.exempt) return undefined
    return yield* decided(policy, limit, yield* limiter.hit(limitKey(policy, scope, client), limit, policy.windowMs))
  })

/**
 * The limit step of a write to one submission, for a client that is not exempt: counted only when the
 * submission exists, else `SubmissionNotFound` (before the limit: no headers, nothing counted).
 */
export const submissionLimitStep = (limiter: typeof RateLimiter.Service) =>
  Effect.fnUntraced(function*(policy: LimitPolicy, limit: number, scope: string, client: Client, submission: SubmissionRef) {
    const found = yield* limiter.hitForSubmission(limitKey(policy, scope, client), limit, policy.windowMs, submission)
    if (Option.isNone(found)) return yield* new SubmissionNotFound({})
    return yield* decided(policy, limit, found.value)
  })

const decided = (policy: LimitPolicy, limit: number, decision: RateLimitDecision) => {
  const state: RateLimitState = toRateLimitState(policy, limit, decision)
  return decision.allowed ? Effect.succeed(state) : Effect.fail(new Refused(new RateLimited({}), state))
}
