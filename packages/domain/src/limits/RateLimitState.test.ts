import { describe, expect, it } from "@effect/vitest"
import { clientAt, limitKey, submitPolicy, writePolicy } from "./LimitPolicy.js"
import { toRateLimitState } from "./RateLimitState.js"

describe("toRateLimitState", () => {
  it.each([
    { reset_ms: 0, reset_seconds: 0 },
    { reset_ms: 1, reset_seconds: 1 },
    { reset_ms: 1_000, reset_seconds: 1 },
    { reset_ms: 1_001, reset_seconds: 2 },
    { reset_ms: 3_600_000, reset_seconds: 3600 }
  ])("reset_ms $reset_ms → reset_seconds $reset_seconds (rounded up)", ({ reset_ms, reset_seconds }) => {
    expect(toRateLimitState(submitPolicy, 10, { allowed: true, remaining: 4, reset_ms })).toEqual({
      policy: "submit",
      limit: 10,
      window_seconds: 3600,
      remaining: 4,
      reset_seconds
    })
  })

  it("the key is per policy, scope and client address", () => {
    expect(limitKey(submitPolicy, "fs-1", clientAt("::1"))).toBe("submit:fs-1:::1")
    expect(limitKey(writePolicy, "fs-1", clientAt("2001:db8::"))).toBe("write:fs-1:2001:db8::")
  })
})
