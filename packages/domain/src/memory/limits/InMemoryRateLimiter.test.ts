import fc from "fast-check"
import { describe, expect, it } from "@effect/vitest"
import { slidingWindowHit } from "./InMemoryRateLimiter.js"

describe("slidingWindowHit", () => {
  it("property: within any window no more than `limit` hits pass, and a refused hit is not recorded", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 5_000 }), { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 3_000 }),
        (gaps, limit, windowMs) => {
          let now = 0
          let hits: ReadonlyArray<number> = []
          const passed: Array<number> = []
          for (const gap of gaps) {
            now += gap
            const step = slidingWindowHit(hits, now, limit, windowMs)
            if (step.decision.allowed) passed.push(now)
            else expect(step.hits.length).toBe(limit)
            hits = step.hits
          }
          for (const start of passed) {
            expect(passed.filter((t) => t >= start && t - start < windowMs).length).toBeLessThanOrEqual(limit)
          }
        }
      )
    )
  })
})
