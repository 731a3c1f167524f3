import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber } from "effect"
import { TestClock } from "effect/testing"
import { makeInProcessSignal } from "./InProcessSignal.js"

describe("in-process OutboxSignal", () => {
  it.effect("a wait without a notify times out with false", () =>
    Effect.gen(function*() {
      const signal = yield* makeInProcessSignal
      const fiber = yield* Effect.forkChild(signal.wait(1_000))
      yield* TestClock.adjust(1_000)
      expect(yield* Fiber.join(fiber)).toBe(false)
    }))

  it.effect("a notify wakes every waiter at once", () =>
    Effect.gen(function*() {
      const signal = yield* makeInProcessSignal
      const a = yield* Effect.forkChild(signal.wait(60_000))
      const b = yield* Effect.forkChild(signal.wait(60_000))
      yield* Effect.yieldNow
      yield* signal.notify
      expect([yield* Fiber.join(a), yield* Fiber.join(b)]).toEqual([true, true])
    }))

  it.effect("a notify while nobody waits is kept for the next wait (once)", () =>
    Effect.gen(function*() {
      const signal = yield* makeInProcessSignal
      yield* signal.notify
      yield* signal.notify
      expect(yield* signal.wait(60_000)).toBe(true)
      const next = yield* Effect.forkChild(signal.wait(10))
      yield* TestClock.adjust(10)
      expect(yield* Fiber.join(next)).toBe(false)
    }))

  it.effect("a waiter that timed out is not woken later, and the notify is kept for the next wait", () =>
    Effect.gen(function*() {
      const signal = yield* makeInProcessSignal
      const first = yield* Effect.forkChild(signal.wait(5))
      yield* TestClock.adjust(5)
      expect(yield* Fiber.join(first)).toBe(false)
      yield* signal.notify
      expect(yield* signal.wait(60_000)).toBe(true)
    }))
})
