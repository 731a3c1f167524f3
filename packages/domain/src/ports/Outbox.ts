/** Port: the outbox of lifecycle events. Appending happens inside the atomic step that causes the event. */
import { Context, type Effect } from "effect"
import type { Unavailable } from "../Errors.js"

export type EventType = "submission.submitted" | "section.submitted"

export interface NewOutboxEvent {
  readonly type: EventType
  readonly payload: Readonly<Record<string, unknown>>
}

export interface OutboxEvent extends NewOutboxEvent {
  /** A stable UUID. */
  readonly id: string
  readonly attempts: number
  readonly last_error: string | null
}

export class Outbox extends Context.Service<Outbox, {
  /** Claims up to `limit` events that are due and not delivered, so that no other dispatcher delivers them meanwhile. */
  readonly claim: (limit: number) => Effect.Effect<ReadonlyArray<OutboxEvent>, Unavailable>
  readonly markDelivered: (id: string) => Effect.Effect<void, Unavailable>
  /** Records a failed attempt: due again at `retryAt` (epoch ms), or parked dead when `retryAt` is null. */
  readonly markFailed: (id: string, error: string, retryAt: number | null) => Effect.Effect<void, Unavailable>
  readonly dead: Effect.Effect<ReadonlyArray<OutboxEvent>, Unavailable>
  /** Queues a dead event again; false when no dead event has that id. */
  readonly retry: (id: string) => Effect.Effect<boolean, Unavailable>
}>()("@forms/domain/Outbox") {}
