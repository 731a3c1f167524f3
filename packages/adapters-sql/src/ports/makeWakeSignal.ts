/**
 * An in-process wake-up signal (the `OutboxSignal` shape) for the LISTEN adapter. Like the domain's
 * `makeInProcessSignal`, but it detaches the current waiters before waking them: completing a Deferred may
 * resume its fiber synchronously, and a fiber that waits again at once must not be woken by the same notify.
 */
import { Deferred, Effect, Option } from "effect"
import type { OutboxSignal } from "@forms/domain"

export const makeWakeSignal: Effect.Effect<OutboxSignal["Service"]> = Effect.sync(() => {
  let waiters = new Set<Deferred.Deferred<void>>()
  let pending = false

  const notify = Effect.sync(() => {
    if (waiters.size === 0) {
      pending = true
      return
    }
    const woken = waiters
    waiters = new Set()
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

  return { notify, wait }
})
