/** In-memory sliding-window RateLimiter on Effect's Clock: a hit counts only when allowed. */
import { Effect, Layer, Option, Result } from "effect"
import { type RateLimitDecision, RateLimiter } from "../../limits/RateLimiter.js"
import { InMemoryStore } from "../InMemoryStore.js"
import { findInSchema } from "../publicForms/InMemorySubmissions.js"

/**
 * The pure step: a counted hit at `t` is in the window while `now - t < windowMs`. Returns the hits
 * still counted after this request and the decision.
 */
export const slidingWindowHit = (
  counted: ReadonlyArray<number>,
  now: number,
  limit: number,
  windowMs: number
): { readonly hits: ReadonlyArray<number>; readonly decision: RateLimitDecision } => {
  const inWindow = counted.filter((at) => now - at < windowMs)
  const allowed = inWindow.length < limit
  const hits = allowed ? [...inWindow, now] : inWindow
  const oldest = hits[0]
  return {
    hits,
    decision: {
      allowed,
      remaining: allowed ? limit - hits.length : 0,
      reset_ms: oldest === undefined ? 0 : oldest + windowMs - now
    }
  }
}

const inMemoryRateLimiterLayer = Layer.effect(
  RateLimiter,
  Effect.gen(function*() {
    const store = yield* InMemoryStore
    // Weighted windows: key → [epoch ms, amount] oldest first.
    const amounts = new Map<string, Array<readonly [number, number]>>()
    const inWindow = (key: string, windowMs: number, now: number) => {
      const kept = (amounts.get(key) ?? []).filter(([at]) => now - at < windowMs)
      amounts.set(key, kept)
      return kept
    }
    const count = (key: string, limit: number, windowMs: number, now: number) => {
      const { decision, hits } = slidingWindowHit(store.data.hits.get(key) ?? [], now, limit, windowMs)
      store.data.hits.set(key, [...hits])
      return decision
    }
    return RateLimiter.of({
      hit: (key, limit, windowMs) => store.atomically((now) => Result.succeed(count(key, limit, windowMs, now))),
      hitForSubmission: (key, limit, windowMs, submission) =>
        store.atomically((now) =>
          Result.succeed(
            findInSchema(store.data, submission.schema_id, submission.id) !== undefined
              ? Option.some(count(key, limit, windowMs, now))
              : Option.none()
          )
        ),
      amountUsed: (key, windowMs) =>
        store.atomically((now) => {
          const kept = inWindow(key, windowMs, now)
          const oldest = kept[0]
          return Result.succeed({
            used: kept.reduce((sum, [, amount]) => sum + amount, 0),
            reset_ms: oldest === undefined ? 0 : oldest[0] + windowMs - now
          })
        }),
      addAmount: (key, amount, windowMs) =>
        store.atomically((now) => Result.succeed(void inWindow(key, windowMs, now).push([now, amount])))
    })
  })
)

/** The layer of `InMemoryRateLimiter`: `InMemoryRateLimiter.layer`. */
export const InMemoryRateLimiter = { layer: inMemoryRateLimiterLayer } as const
