/** Port: wakes the dispatcher when events were recorded (PostgreSQL LISTEN/NOTIFY, or in-process). */
import { Context, type Effect } from "effect"

export class OutboxSignal extends Context.Service<OutboxSignal, {
  /** Called after a step that recorded events has committed (or, in SQL, by NOTIFY inside it). Never fails. */
  readonly notify: Effect.Effect<void>
  /**
   * Waits until a notify arrives or `timeoutMs` passes; true when woken by a notify. A notify
   * that arrived since the previous wait returned is not lost: the next wait returns at once.
   */
  readonly wait: (timeoutMs: number) => Effect.Effect<boolean>
}>()("@forms/domain/OutboxSignal") {}
