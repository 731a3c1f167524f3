import { describe, expect, it } from "@effect/vitest"
import { submitRateLimitKey, toRateLimitState } from "./rateLimitState.js"

describe("toRateLimitState", () => {
  it.each([
    { reset_ms: 0, reset_seconds: 0 },
    { reset_ms: 1, reset_seconds: 1 },
    { reset_ms: 1_000, reset_seconds: 1 },
    { reset_ms: 1_001, reset_seconds: 2 },
    { reset_ms: 3_600_000, reset_seconds: 3600 }
  ])("reset_ms $reset_ms → reset_seconds $reset_seconds (rounded up)", ({ reset_ms, reset_seconds }) => {
    expect(toRateLimitState("submit", 10, 3_600_000, { allowed: true, remaining: 4, reset_ms })).toEqual({
      policy: "submit",
      limit: 10,
      window_seconds: 3600,
      remaining: 4,
      reset_seconds
    })
  })

  it("the key is per schema and client IP", () => {
    expect(submitRateLimitKey("fs-1", "::1")).toBe("submit:fs-1:::1")
  })
})
