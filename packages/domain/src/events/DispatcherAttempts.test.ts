import { describe, expect, it } from "@effect/vitest"
import { Clock, Effect, Fiber, Layer } from "effect"
import { TestClock } from "effect/testing"
import { outboxRows, runEvents, settle, submitTravel } from "../testing/events/eventsTestKit.js"
import { runSlowDispatchers } from "../testing/events/slowDispatchers.js"
import { claimPolicy, dispatchBatch } from "./Dispatcher.js"
import type { EventHandler } from "./EventHandlers.js"
import { interruptedAttemptError, Outbox } from "./Outbox.js"

describe("attempts and leases", () => {
  it.effect("a poison event whose delivery never gets an outcome (a crash each time) is parked dead after its 10th attempt, its neighbour delivered", () => {
    const ids = { poison: "" }
    const delivered: Array<string> = []
    // The poison event's delivery hangs until its dispatcher is killed; any other is delivered.
    const poison: EventHandler = {
      name: "poison",
      type: "section.submitted",
      handle: (event) => event.id === ids.poison ? Effect.never : Effect.sync(() => void delivered.push(event.id))
    }
    return runEvents([poison], Effect.gen(function*() {
      yield* submitTravel("POISON")
      ids.poison = (yield* outboxRows)[0]?.id ?? ""
      yield* submitTravel("KL2")
      const leaseMs = claimPolicy().leaseMs
      for (let attempt = 1; attempt <= 10; attempt++) {
        // A process that dies in the middle of the delivery: nothing after the claim is recorded.
        const crashed = yield* Effect.forkChild(dispatchBatch())
        yield* settle
        yield* Fiber.interrupt(crashed)
        const row = (yield* outboxRows).find((r) => r.id === ids.poison)
        expect([row?.attempts, row?.last_error, row?.dead_at]).toEqual([attempt, attempt === 1 ? null : interruptedAttemptError, null])
        yield* TestClock.adjust(leaseMs)
      }
      const result = yield* dispatchBatch()
      expect(result).toMatchObject({ claimed: 1, delivered: 0, dead: 1 })
      const dead = yield* (yield* Outbox).dead
      expect(dead.map((e) => [e.id, e.attempts, e.last_error])).toEqual([[ids.poison, 10, interruptedAttemptError]])
      // The event claimed in the poison's first (fresh) batch was charged that one interrupted attempt; found
      // interrupted, it was then claimed alone, before the poison (whose lease had moved it back), and delivered.
      const neighbour = (yield* outboxRows).find((r) => r.id !== ids.poison)
      expect(delivered).toEqual([neighbour?.id, neighbour?.id])
      expect([neighbour?.attempts, neighbour?.last_error, neighbour?.delivered_at !== null, neighbour?.dead_at]).toEqual([2, interruptedAttemptError, true, null])
      yield* TestClock.adjust(3_600_000)
      expect((yield* dispatchBatch()).claimed).toBe(0)
    }))
  })

  it.effect("a failure after an interrupted attempt is not counted twice: the backoff follows the attempts counted", () => {
    let calls = 0
    const failing: EventHandler = {
      name: "failing",
      type: "section.submitted",
      handle: () => Effect.suspend(() => (++calls === 1 ? Effect.never : Effect.fail(new Error("boom"))))
    }
    return runEvents([failing], Effect.gen(function*() {
      yield* submitTravel("KL1")
      const crashed = yield* Effect.forkChild(dispatchBatch())
      yield* settle
      yield* Fiber.interrupt(crashed)
      yield* TestClock.adjust(claimPolicy().leaseMs)
      const now = yield* Clock.currentTimeMillis
      const noJitter = { backoff: { baseMs: 1_000, capMs: 300_000, jitter: 0, maxAttempts: 10 } }
      // Attempt 2 fails: the second backoff step (2 s), and 2 attempts, not 3.
      expect((yield* dispatchBatch(noJitter)).nextRetryAt).toBe(now + 2_000)
      const [row] = yield* outboxRows
      expect([row?.attempts, row?.last_error, row?.available_at]).toEqual([2, "failing: Error: boom", now + 2_000])
    }))
  })

  it.effect("slow deliveries outliving a 60 s batch: no event is claimed by a second dispatcher while the first works on it", () =>
    runEvents([], Effect.gen(function*() {
      for (let i = 0; i < 20; i++) yield* submitTravel(`KL${i}`)
      // Two dispatchers over the one store (its Outbox is stateless beyond the store).
      const outbox = Layer.succeed(Outbox, yield* Outbox)
      const result = yield* runSlowDispatchers([outbox, outbox], 20, settle)
      expect(result.overlaps).toEqual([])
      expect([result.calls.size, [...result.calls.values()].every((n) => n === 1)]).toEqual([20, true])
      expect((yield* outboxRows).every((row) => row.delivered_at !== null && row.attempts === 1)).toBe(true)
    })))
})
