import { describe, expect, it } from "@effect/vitest"
import { nextAttemptAt, parseRetryAfter } from "./deliverySchedule.js"
import { parseRetrySchedule } from "./WebhookSettings.js"

const schedule = [5_000, 300_000, 1_800_000]

describe("the retry schedule (1 + n attempts for n delays)", () => {
  it("each failure waits the next delay, less up to 20 % jitter; after the last attempt: none", () => {
    expect(nextAttemptAt(0, 1, schedule, 0, null)).toBe(5_000)
    expect(nextAttemptAt(0, 1, schedule, 0.999999, null)).toBe(4_000)
    expect(nextAttemptAt(0, 2, schedule, 0.5, null)).toBe(270_000)
    expect(nextAttemptAt(0, 3, schedule, 0, null)).toBe(1_800_000)
    expect(nextAttemptAt(0, 4, schedule, 0, null)).toBeNull()
    expect(nextAttemptAt(0, 1, [], 0, null)).toBeNull()
  })
  it("a longer Retry-After is honoured, capped at the longest delay; a shorter one is not", () => {
    expect(nextAttemptAt(0, 1, schedule, 0, 60_000)).toBe(60_000)
    expect(nextAttemptAt(0, 1, schedule, 0, 99_000_000)).toBe(1_800_000)
    expect(nextAttemptAt(0, 2, schedule, 0, 1_000)).toBe(300_000)
  })
  it("Retry-After: seconds or an HTTP date", () => {
    expect(parseRetryAfter("120", 0)).toBe(120_000)
    expect(parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT", Date.parse("2015-10-21T07:27:00Z"))).toBe(60_000)
    expect(parseRetryAfter("soon", 0)).toBeNull()
    expect(parseRetryAfter("-5", 0)).toBeNull()
    expect(parseRetryAfter(null, 0)).toBeNull()
  })
  it("WEBHOOK_RETRY_SCHEDULE: seconds, comma-separated", () => {
    expect(parseRetrySchedule("5,300, 1800")).toEqual(schedule)
    expect(parseRetrySchedule("")).toEqual([])
    expect(parseRetrySchedule("0,1")).toEqual([0, 1000])
    expect(typeof parseRetrySchedule("5,x")).toBe("string")
    expect(typeof parseRetrySchedule("1.5")).toBe("string")
  })
})
