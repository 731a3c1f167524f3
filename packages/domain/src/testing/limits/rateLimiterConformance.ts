/** Conformance of the RateLimiter: a sliding window on Effect's Clock, refused hits not counted. */
import { describe, expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import { RateLimiter } from "../../limits/RateLimiter.js"
import { seedIds } from "../../memory/conformanceSeed.js"
import { Submissions } from "../../publicForms/Submissions.js"
import { type ConformanceIt, draftOf, makeFresh } from "../support.js"

const start = Date.parse("2027-07-01T00:00:00.000Z")
const windowMs = 10_000

/** Runs `body` on a TestClock set to `start`: the limiter must read time from the calling fiber's Clock. */
const onTestClock = <A, E, R>(body: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    yield* TestClock.setTime(start)
    return yield* body
  }).pipe(Effect.provide(TestClock.layer()))

export const rateLimiterConformance = (it: ConformanceIt): void => {
  const fresh = makeFresh()

  describe("RateLimiter", () => {
    it.effect("lets `limit` hits through, then refuses until the oldest leaves the window", () =>
      onTestClock(Effect.gen(function*() {
        const limiter = yield* RateLimiter
        const key = fresh("rl-basic")
        const allowed = yield* Effect.forEach([1, 2, 3], () => limiter.hit(key, 3, windowMs))
        expect(allowed).toEqual([
          { allowed: true, remaining: 2, reset_ms: windowMs },
          { allowed: true, remaining: 1, reset_ms: windowMs },
          { allowed: true, remaining: 0, reset_ms: windowMs }
        ])
        expect(yield* limiter.hit(key, 3, windowMs)).toEqual({ allowed: false, remaining: 0, reset_ms: windowMs })
        yield* TestClock.adjust(windowMs - 1)
        expect(yield* limiter.hit(key, 3, windowMs)).toEqual({ allowed: false, remaining: 0, reset_ms: 1 })
        yield* TestClock.adjust(1)
        // All three left together: a fresh window.
        expect(yield* limiter.hit(key, 3, windowMs)).toEqual({ allowed: true, remaining: 2, reset_ms: windowMs })
      })))

    it.effect("a weighted window sums the amounts added in it; each leaves when its window ends", () =>
      onTestClock(Effect.gen(function*() {
        const limiter = yield* RateLimiter
        const key = fresh("rl-amounts")
        expect(yield* limiter.amountUsed(key, windowMs)).toEqual({ used: 0, reset_ms: 0 })
        yield* limiter.addAmount(key, 1_500, windowMs)
        yield* TestClock.adjust(4_000)
        yield* limiter.addAmount(key, 2_000_000_000, windowMs)
        expect(yield* limiter.amountUsed(key, windowMs)).toEqual({ used: 2_000_001_500, reset_ms: 6_000 })
        expect((yield* limiter.amountUsed(fresh("rl-amounts-other"), windowMs)).used).toBe(0)
        yield* TestClock.adjust(6_000)
        expect(yield* limiter.amountUsed(key, windowMs)).toEqual({ used: 2_000_000_000, reset_ms: 4_000 })
        yield* TestClock.adjust(4_000)
        expect(yield* limiter.amountUsed(key, windowMs)).toEqual({ used: 0, reset_ms: 0 })
      })))

    it.effect("amounts added in parallel are all counted", () =>
      onTestClock(Effect.gen(function*() {
        const limiter = yield* RateLimiter
        const key = fresh("rl-amounts-parallel")
        yield* Effect.all(Array.from({ length: 20 }, (_, i) => limiter.addAmount(key, i + 1, windowMs)), { concurrency: "unbounded" })
        expect((yield* limiter.amountUsed(key, windowMs)).used).toBe(210)
      })))

    it.effect("refused hits do not count", () =>
      onTestClock(Effect.gen(function*() {
        const limiter = yield* RateLimiter
        const key = fresh("rl-refused")
        yield* Effect.forEach([1, 2], () => limiter.hit(key, 2, windowMs))
        yield* TestClock.adjust(5_000)
        const refused = yield* Effect.forEach([1, 2, 3, 4, 5], () => limiter.hit(key, 2, windowMs))
        expect(refused.every((d) => !d.allowed && d.reset_ms === 5_000)).toBe(true)
        yield* TestClock.adjust(5_000)
        const next = yield* Effect.forEach([1, 2], () => limiter.hit(key, 2, windowMs))
        expect(next.map((d) => d.allowed)).toEqual([true, true])
      })))

    it.effect("the window slides: each hit leaves it on its own, reset_ms counts from the oldest", () =>
      onTestClock(Effect.gen(function*() {
        const limiter = yield* RateLimiter
        const key = fresh("rl-slide")
        yield* limiter.hit(key, 3, windowMs)
        yield* TestClock.adjust(4_000)
        yield* limiter.hit(key, 3, windowMs)
        yield* TestClock.adjust(4_000)
        expect(yield* limiter.hit(key, 3, windowMs)).toEqual({ allowed: true, remaining: 0, reset_ms: 2_000 })
        yield* TestClock.adjust(1_000)
        expect(yield* limiter.hit(key, 3, windowMs)).toEqual({ allowed: false, remaining: 0, reset_ms: 1_000 })
        yield* TestClock.adjust(1_000)
        expect(yield* limiter.hit(key, 3, windowMs)).toEqual({ allowed: true, remaining: 0, reset_ms: 4_000 })
        yield* TestClock.adjust(1)
        expect(yield* limiter.hit(key, 3, windowMs)).toEqual({ allowed: false, remaining: 0, reset_ms: 3_999 })
        yield* TestClock.adjust(3_999)
        expect(yield* limiter.hit(key, 3, windowMs)).toEqual({ allowed: true, remaining: 0, reset_ms: 4_000 })
      })))

    it.effect("keys are independent", () =>
      onTestClock(Effect.gen(function*() {
        const limiter = yield* RateLimiter
        const a = fresh("rl-a")
        const b = fresh("rl-b")
        yield* limiter.hit(a, 1, windowMs)
        expect((yield* limiter.hit(a, 1, windowMs)).allowed).toBe(false)
        expect(yield* limiter.hit(b, 1, windowMs)).toEqual({ allowed: true, remaining: 0, reset_ms: windowMs })
      })))

    it.effect("20 parallel hits with a limit of 5: exactly 5 pass", () =>
      Effect.gen(function*() {
        const limiter = yield* RateLimiter
        const key = fresh("rl-parallel")
        const decisions = yield* Effect.all(
          Array.from({ length: 20 }, () => limiter.hit(key, 5, 3_600_000)),
          { concurrency: "unbounded" }
        )
        expect(decisions.filter((d) => d.allowed).length).toBe(5)
        expect(decisions.filter((d) => d.allowed).map((d) => d.remaining).sort()).toEqual([0, 1, 2, 3, 4])
      }))

    it.effect("hitForSubmission counts only for a submission of the form: an unknown, foreign or malformed id counts nothing", () =>
      onTestClock(Effect.gen(function*() {
        const limiter = yield* RateLimiter
        const submissions = yield* Submissions
        const { submission } = yield* submissions.createOrGet(draftOf(seedIds.volunteer, fresh("rl-submission-key")))
        const key = fresh("rl-submission")
        const hit = (schema_id: string, id: string) => limiter.hitForSubmission(key, 2, windowMs, { schema_id, id })
        expect(yield* hit(seedIds.volunteer, "00000000-0000-4000-8000-000000000000")).toEqual(Option.none())
        expect(yield* hit(seedIds.registration, submission.id)).toEqual(Option.none())
        expect(yield* hit(seedIds.volunteer, "not-a-uuid")).toEqual(Option.none())
        expect(yield* hit(seedIds.volunteer, submission.id)).toEqual(Option.some({ allowed: true, remaining: 1, reset_ms: windowMs }))
        expect(yield* hit(seedIds.volunteer, submission.id)).toEqual(Option.some({ allowed: true, remaining: 0, reset_ms: windowMs }))
        expect(yield* hit(seedIds.volunteer, submission.id)).toEqual(Option.some({ allowed: false, remaining: 0, reset_ms: windowMs }))
        // One window for both methods: the key counted two.
        expect((yield* limiter.hit(key, 2, windowMs)).allowed).toBe(false)
      })))
  })
}
