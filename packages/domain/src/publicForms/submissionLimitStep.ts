/** The limit step of a write to one submission (CONTRACT §3, §8): counted only when the submission exists. */
import { Effect, Option } from "effect"
import { type Client, limitKey, type LimitPolicy } from "../limits/LimitPolicy.js"
import { limitDecision } from "../limits/limitStep.js"
import type { RateLimiter, SubmissionRef } from "../limits/RateLimiter.js"
import { SubmissionNotFound } from "./errors.js"

/**
 * The limit step of a write to one submission, for a client that is not exempt: counted only when the
 * submission exists, else `SubmissionNotFound` (before the limit: no headers, nothing counted).
 */
export const submissionLimitStep = (limiter: typeof RateLimiter.Service) =>
  Effect.fnUntraced(function*(policy: LimitPolicy, limit: number, scope: string, client: Client, submission: SubmissionRef) {
    const found = yield* limiter.hitForSubmission(limitKey(policy, scope, client), limit, policy.windowMs, submission)
    if (Option.isNone(found)) return yield* new SubmissionNotFound({})
    return yield* limitDecision(policy, limit, found.value)
  })
