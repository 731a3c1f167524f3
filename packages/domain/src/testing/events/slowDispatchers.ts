/**
 * A scenario for any Outbox adapter: two dispatchers over one store, every delivery slow (25 s of a
 * TestClock, under the 30 s timeout), so that a batch outlives a 60 s lease. Records every event a
 * delivery started on while another delivery of it was still running.
 */
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { runDispatcher } from "../../events/Dispatcher.js"
import { type EventHandler, EventHandlers } from "../../events/EventHandlers.js"
import type { Outbox } from "../../events/Outbox.js"
import { OutboxSignal } from "../../events/OutboxSignal.js"

export const slowDeliveryMs = 25_000
const stepMs = 5_000

export interface SlowDispatchersResult {
  /** Deliveries started per event id. */
  readonly calls: ReadonlyMap<string, number>
  /** Events a delivery started on while another delivery of the same event was running. */
  readonly overlaps: ReadonlyArray<string>
  /** Deliveries finished. */
  readonly finished: number
}

/**
 * Runs two `runDispatcher` loops (default options, poll 5 s), one over each of `outboxes`, on the
 * TestClock in context, until `expected` deliveries have finished (or 400 steps of 5 s). `pause` lets
 * I/O in flight progress (a few yields in memory, a few real milliseconds on a database); the clock
 * moves only once both dispatchers sleep (in a handler or waiting for the next poll).
 */
export const runSlowDispatchers = <E, R>(
  outboxes: readonly [Layer.Layer<Outbox, E, R>, Layer.Layer<Outbox, E, R>],
  expected: number,
  pause: Effect.Effect<void>
) =>
  Effect.scoped(Effect.gen(function*() {
    const calls = new Map<string, number>()
    const inFlight = new Set<string>()
    const overlaps: Array<string> = []
    let finished = 0
    let asleep = 0
    const sleeping = (ms: number) =>
      Effect.acquireUseRelease(Effect.sync(() => void asleep++), () => Effect.sleep(ms), () => Effect.sync(() => void asleep--))
    const slow: EventHandler = {
      name: "slow",
      type: "section.submitted",
      handle: (event) =>
        Effect.gen(function*() {
          if (inFlight.has(event.id)) overlaps.push(event.id)
          inFlight.add(event.id)
          calls.set(event.id, (calls.get(event.id) ?? 0) + 1)
          yield* sleeping(slowDeliveryMs)
          inFlight.delete(event.id)
          finished++
        })
    }
    // No wake-ups: each dispatcher polls, so that both sleep on the clock between steps.
    const polling = Layer.succeed(OutboxSignal, OutboxSignal.of({
      notify: Effect.void,
      wait: (ms) => Effect.as(sleeping(ms), false)
    }))
    for (const outbox of outboxes) {
      yield* Effect.forkScoped(runDispatcher({ pollIntervalMs: stepMs }).pipe(
        Effect.provide(Layer.mergeAll(outbox, EventHandlers.layer([slow]), polling))
      ))
    }
    const quiet = Effect.gen(function*() {
      for (let i = 0; i < 2_000 && asleep < 2; i++) yield* pause
    })
    yield* quiet
    for (let step = 0; step < 400 && finished < expected; step++) {
      yield* TestClock.adjust(stepMs)
      yield* quiet
    }
    return { calls, overlaps, finished } satisfies SlowDispatchersResult
  }))
