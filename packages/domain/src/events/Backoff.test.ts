import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { attemptInRound, backoffDelay, defaultBackoff, nextRetryAt } from "./Backoff.js"

describe("backoff", () => {
  it("doubles from 1 s without jitter: 1, 2, 4 … 256 s, then the 5 min cap", () => {
    const delays = Array.from({ length: 12 }, (_, i) => backoffDelay(i + 1, 0))
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 128_000, 256_000, 300_000, 300_000, 300_000])
  })

  it("jitter takes up to 20% off, never adds", () => {
    expect(backoffDelay(1, 0.5)).toBe(900)
    expect(backoffDelay(1, 0.999_999)).toBe(800)
    expect(backoffDelay(10, 0.5)).toBe(270_000)
  })

  it("is due again after the first nine failures; the tenth parks the event dead", () => {
    const now = 1_000_000
    expect(nextRetryAt(now, 1, 0)).toBe(now + 1_000)
    expect(nextRetryAt(now, 9, 0)).toBe(now + 256_000)
    expect(nextRetryAt(now, 10, 0)).toBeNull()
    expect(nextRetryAt(now, 11, 0)).toBeNull()
    expect(nextRetryAt(now, 3, 0, { ...defaultBackoff, maxAttempts: 3 })).toBeNull()
  })

  it("a delay stays within (80%, 100%] of min(2^(n-1) s, 5 min), for any attempt and random", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (n, r) => {
        const nominal = Math.min(300_000, 1_000 * 2 ** (n - 1))
        const delay = backoffDelay(n, r)
        return Number.isInteger(delay) && delay <= nominal && delay >= Math.floor(nominal * 0.8)
      })
    )
  })

  it("counts attempts in rounds of maxAttempts: a dead event queued again gets a full round", () => {
    expect([1, 2, 9, 10].map((n) => attemptInRound(n))).toEqual([1, 2, 9, 10])
    expect([11, 12, 20, 21].map((n) => attemptInRound(n))).toEqual([1, 2, 10, 1])
    expect(attemptInRound(0)).toBe(1)
  })

  it("out-of-range inputs are clamped (attempt below 1 counts as 1; random outside [0, 1])", () => {
    expect(backoffDelay(0, 0)).toBe(1_000)
    expect(backoffDelay(-3, 0)).toBe(1_000)
    expect(backoffDelay(1, -1)).toBe(1_000)
    expect(backoffDelay(1, 7)).toBe(800)
  })
})
