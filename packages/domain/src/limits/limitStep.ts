/** The limit step of a use case (CONTRACT §8): counts the request, or refuses it with 429. */
import { Effect } from "effect"
import { countRefusal } from "../operations/counters.js"
import { RateLimited } from "./errors.js"
import { Refused } from "./Limited.js"
import { type Client, limitKey, type LimitPolicy } from "./LimitPolicy.js"
import type { RateLimitDecision, RateLimiter } from "./RateLimiter.js"
import { type RateLimitState, toRateLimitState } from "./RateLimitState.js"

/**
 * The state for the headers, or undefined for an exempt client (counted by no limit). A refused request is
 * not counted (the port's rule) and fails with `Refused(RateLimited)`.
 */
export const limitStep = (limiter: typeof RateLimiter.Service) =>
  Effect.fnUntraced(function*(policy: LimitPolicy, limit: number, scope: string, client: Client) {
    if (client.exempt) return undefined
    return yield* limitDecision(policy, limit, yield* limiter.hit(limitKey(policy, scope, client), limit, policy.windowMs))
  })

/** The state for the headers when the limiter allowed the request, else `Refused(RateLimited)` with it. */
export const limitDecision = (policy: LimitPolicy, limit: number, decision: RateLimitDecision) => {
  const state: RateLimitState = toRateLimitState(policy, limit, decision)
  if (decision.allowed) return Effect.succeed(state)
  return Effect.andThen(countRefusal(policy.name), Effect.fail(new Refused(new RateLimited({}), state)))
}
