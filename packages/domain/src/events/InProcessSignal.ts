/** An in-process OutboxSignal: for one process (PGlite, the in-memory adapters, tests). Pure Effect, no I/O. */
import { Deferred, Effect, Layer, Option } from "effect"
import { OutboxSignal } from "./OutboxSignal.js"

/** Builds a signal whose notify wakes every current waiter, or the next wait when none is waiting. */
export const makeInProcessSignal: Effect.Effect<OutboxSignal["Service"]> = Effect.sync(() => {
  const waiters = new Set<Deferred.Deferred<void>>()
  let pending = false

  const notify = Effect.sync(() => {
    if (waiters.size === 0) {
      pending = true
      return
    }
    // Detach the waiters first: completing one may resume its fiber at once, and a fiber that
    // waits again must not be woken by this same notify.
    const woken = [...waiters]
    waiters.clear()
    for (const waiter of woken) Deferred.doneUnsafe(waiter, Effect.void)
  })

  const wait = (timeoutMs: number): Effect.Effect<boolean> =>
    Effect.suspend(() => {
      if (pending) {
        pending = false
        return Effect.succeed(true)
      }
      const waiter = Deferred.makeUnsafe<void>()
      waiters.add(waiter)
      return Deferred.await(waiter).pipe(
        Effect.timeoutOption(Math.max(0, timeoutMs)),
        Effect.map(Option.isSome),
        Effect.ensuring(Effect.sync(() => waiters.delete(waiter)))
      )
    })

  return OutboxSignal.of({ notify, wait })
})

export const InProcessSignal = {
  layer: Layer.effect(OutboxSignal, makeInProcessSignal)
} as const
