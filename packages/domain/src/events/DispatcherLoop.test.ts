import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { InMemoryStore } from "../memory/InMemoryStore.js"
import { flaky, noJitter, now, outboxRows, runEvents, settle, submitTravel } from "../testing/events/eventsTestKit.js"
import { Dispatcher, type DispatcherOptions } from "./Dispatcher.js"
import { type EventHandler, EventHandlers } from "./EventHandlers.js"
import { Outbox } from "./Outbox.js"
import { OutboxSignal } from "./OutboxSignal.js"

/** Starts the dispatcher with its claims counted: `claims()` is the number of `claimBatch` calls so far. */
const startCountingClaims = (options: Partial<DispatcherOptions>) =>
  Effect.gen(function*() {
    let claims = 0
    const counted = Outbox.use((outbox) =>
      Effect.succeed(Outbox.of({
        ...outbox,
        claimBatch: (limit, policy) => Effect.suspend(() => (claims++, outbox.claimBatch(limit, policy)))
      })))
    yield* Dispatcher.start(options).pipe(Effect.provideServiceEffect(Outbox, counted))
    return () => claims
  })

describe("Dispatcher loop", () => {
  it.effect("a handler failing twice then succeeding is retried with backoff and applied once", () => {
    const { state, handler } = flaky(2)
    return runEvents([handler], Effect.scoped(Effect.gen(function*() {
      yield* Dispatcher.start({ ...noJitter, pollIntervalMs: 3_600_000 })
      yield* submitTravel("KL1")
      yield* settle
      expect(state.calls).toBe(1)
      yield* TestClock.adjust(1_000)
      yield* settle
      expect(state.calls).toBe(2)
      yield* TestClock.adjust(1_999)
      yield* settle
      expect(state.calls).toBe(2)
      yield* TestClock.adjust(1)
      yield* settle
      expect([state.calls, state.applied.size]).toEqual([3, 1])
      const [row] = yield* outboxRows
      // Three attempts counted by their claims: two failed, the third delivered.
      expect([row?.attempts, row?.delivered_at]).toEqual([3, now + 3_000])
      yield* TestClock.adjust(600_000)
      yield* settle
      expect(state.calls).toBe(3)
    })))
  })

  it.effect("wakes on the signal without waiting for the poll interval; polls when no signal comes", () => {
    const { state, handler } = flaky(0)
    return runEvents([handler], Effect.scoped(Effect.gen(function*() {
      yield* Dispatcher.start({ pollIntervalMs: 10_000 })
      yield* settle
      yield* submitTravel("KL1")
      yield* settle
      expect(state.applied.size).toBe(1)
      // Recorded without a notify: found by the next poll.
      const store = yield* InMemoryStore
      const [first] = store.data.outbox
      if (first === undefined) throw new Error("an event was expected")
      store.data.outbox.push({ ...first, id: "00000000-0000-4000-9000-00000000beef", attempts: 0, available_at: now, delivered_at: null })
      yield* settle
      expect(state.applied.size).toBe(1)
      yield* TestClock.adjust(10_000)
      yield* settle
      expect(state.applied.size).toBe(2)
    })))
  })

  it.effect("claims again at once only after a full batch; after a partial one it waits for the signal", () => {
    const { state, handler } = flaky(0)
    return runEvents([handler], Effect.scoped(Effect.gen(function*() {
      const claims = yield* startCountingClaims({ batchSize: 2, pollIntervalMs: 3_600_000 })
      yield* settle
      expect(claims()).toBe(1)
      yield* submitTravel("KL1")
      yield* settle
      // One claim for the batch: it came back short (1 of 2), so nothing more is due and the batch ends.
      expect([claims(), state.applied.size]).toEqual([2, 1])
      // Three due events and one signal: a full batch of two (one claim), then a batch whose claim finds the third and ends.
      const store = yield* InMemoryStore
      const [first] = store.data.outbox
      if (first === undefined) throw new Error("an event was expected")
      for (const n of [1, 2, 3]) {
        store.data.outbox.push({
          ...first, id: `00000000-0000-4000-9000-00000000bee${n}`, attempts: 0, available_at: now, claimed_until: null, delivered_at: null
        })
      }
      yield* (yield* OutboxSignal).notify
      yield* Effect.repeat(settle, { times: 3 })
      expect([claims(), state.applied.size]).toEqual([4, 4])
    })))
  })

  it.effect("stops when its scope closes: a delivery in flight is abandoned with no outcome recorded", () => {
    const blocking: EventHandler = { name: "blocking", type: "section.submitted", handle: () => Effect.never }
    return runEvents([blocking], Effect.gen(function*() {
      yield* Effect.scoped(Effect.gen(function*() {
        yield* Dispatcher.start()
        yield* submitTravel("KL1")
        yield* settle
      }))
      // Its claim counted the attempt; no outcome is recorded, so the next claim after the lease finds it interrupted.
      const [row] = yield* outboxRows
      expect([row?.attempts, row?.last_error, row?.delivered_at, row?.claimed_until !== null]).toEqual([1, null, null, true])
      yield* submitTravel("KL2")
      yield* TestClock.adjust(600_000)
      yield* settle
      expect((yield* outboxRows).map((r) => [r.attempts, r.delivered_at])).toEqual([[1, null], [0, null]])
    }))
  })

  it.effect("an unavailable store is waited out; delivery resumes when it is back", () => {
    const { state, handler } = flaky(0)
    return runEvents([handler], Effect.scoped(Effect.gen(function*() {
      yield* submitTravel("KL1")
      const store = yield* InMemoryStore
      yield* store.setUnavailable("down")
      yield* Dispatcher.start({ pollIntervalMs: 2_000 })
      yield* settle
      yield* TestClock.adjust(2_000)
      yield* settle
      expect(state.applied.size).toBe(0)
      yield* store.setUnavailable(null)
      yield* TestClock.adjust(2_000)
      yield* settle
      expect(state.applied.size).toBe(1)
    })))
  })

  it.effect("with gatherMs, a signal is followed by a wait, and the events recorded meanwhile are claimed as one batch", () => {
    const { state, handler } = flaky(0)
    return runEvents([handler], Effect.scoped(Effect.gen(function*() {
      const claims = yield* startCountingClaims({ gatherMs: 50, pollIntervalMs: 3_600_000 })
      yield* settle
      expect(claims()).toBe(1)
      yield* submitTravel("KL1")
      yield* settle
      yield* submitTravel("KL2")
      yield* settle
      expect([claims(), state.applied.size]).toEqual([1, 0])
      yield* TestClock.adjust(49)
      yield* settle
      expect([claims(), state.applied.size]).toEqual([1, 0])
      yield* TestClock.adjust(1)
      yield* settle
      // Both events in one claim; the second signal, kept since, brings one more wait and a claim that finds nothing.
      expect([claims(), state.applied.size]).toEqual([2, 2])
      yield* TestClock.adjust(50)
      yield* settle
      expect([claims(), state.applied.size]).toEqual([3, 2])
    })))
  })

  it.effect("Dispatcher.layer runs for the lifetime of the layer", () => {
    const { state, handler } = flaky(0)
    return runEvents([handler], Effect.gen(function*() {
      yield* submitTravel("KL1")
      yield* Effect.scoped(Layer.build(Dispatcher.layer()).pipe(Effect.andThen(settle)))
      expect(state.applied.size).toBe(1)
      yield* (yield* OutboxSignal).notify
    }))
  })
})

describe("EventHandlers", () => {
  it.effect("handlers run in registration order; register layers add to the registry; a name registered again replaces", () => {
    const calls: Array<string> = []
    const named = (name: string): EventHandler => ({
      name,
      type: "section.submitted",
      handle: () => Effect.sync(() => void calls.push(name))
    })
    const registry = EventHandlers.register(Effect.succeed([named("b"), named("a")])).pipe(
      Layer.provideMerge(EventHandlers.layer([named("first")]))
    )
    return Effect.gen(function*() {
      const handlers = yield* EventHandlers
      yield* handlers.register(named("a"))
      const list = yield* handlers.handlersFor("section.submitted")
      expect(list.map((h) => h.name)).toEqual(["first", "b", "a"])
      expect(yield* handlers.handlersFor("submission.submitted")).toEqual([])
      for (const h of list) yield* h.handle({ id: "e", type: "section.submitted", payload: {}, attempts: 0, last_error: null })
      expect(calls).toEqual(["first", "b", "a"])
    }).pipe(Effect.provide(registry))
  })

  it.effect("the built-in layer registers tag sync, identity match and value applying", () =>
    runEvents([], Effect.gen(function*() {
      const handlers = yield* EventHandlers
      expect((yield* handlers.handlersFor("submission.submitted")).map((h) => h.name)).toEqual(["tag-sync", "identity-match"])
      expect((yield* handlers.handlersFor("section.submitted")).map((h) => h.name)).toEqual(["value-applying"])
      expect(Option.isSome(yield* Effect.serviceOption(OutboxSignal))).toBe(true)
    }), { builtin: true }))
})
