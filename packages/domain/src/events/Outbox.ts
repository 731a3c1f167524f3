/** Port: the outbox of lifecycle events. Appending happens inside the atomic step that causes the event. */
import { Context, type Effect, Schema } from "effect"
import type { Unavailable } from "../shared/errors.js"

export const EventType = Schema.Literals([
  "submission.submitted",
  "section.submitted",
  "submission.erased",
  "section.locked",
  "section.reopened",
  "place.promoted",
  "place.cancelled"
])
export type EventType = typeof EventType.Type

export const NewOutboxEvent = Schema.Struct({
  type: EventType,
  payload: Schema.Record(Schema.String, Schema.Unknown)
})
export type NewOutboxEvent = typeof NewOutboxEvent.Type

export const OutboxEvent = Schema.Struct({
  ...NewOutboxEvent.fields,
  /** A stable UUID. */
  id: Schema.String,
  /**
   * Attempts counted so far, interrupted ones included. A claim counts its attempt, so a claimed
   * event carries the number of the attempt it is claimed for (1 for the first delivery).
   */
  attempts: Schema.Number,
  last_error: Schema.NullOr(Schema.String)
})
export type OutboxEvent = typeof OutboxEvent.Type

/** How a claim leases events, and when an attempt that never got an outcome parks its event. */
export interface ClaimPolicy {
  /** A claimed event stays hidden from other claims this long, in ms: longer than its delivery may take. */
  readonly leaseMs: number
  /** Attempts in a round: an interrupted attempt with a number divisible by this one parks the event dead. */
  readonly maxAttempts: number
}

export const Claimed = Schema.Struct({
  /** Leased to the caller, each with its attempt counted. */
  events: Schema.Array(OutboxEvent),
  /**
   * Found due with the last attempt of its round interrupted (claimed, lease run out, no outcome
   * recorded): parked dead instead, with `interruptedAttemptError` as its last error.
   */
  parked: Schema.Array(OutboxEvent)
})
export type Claimed = typeof Claimed.Type

/** The error a claim records for an attempt whose lease ran out without an outcome (a crash, a cut-off delivery). */
export const interruptedAttemptError = "dispatcher: the attempt was interrupted (its lease ran out without an outcome)"

export class Outbox extends Context.Service<Outbox, {
  /**
   * Claims up to `limit` due, undelivered events in one atomic step: counts an attempt for each and
   * leases it for `policy.leaseMs`, so that no other claim takes it meanwhile. An event whose previous
   * attempt was claimed and never answered gets `interruptedAttemptError` as its last error, and is
   * parked dead (not claimed) when that attempt was the last of its round.
   */
  readonly claim: (limit: number, policy: ClaimPolicy) => Effect.Effect<Claimed, Unavailable>
  /**
   * `claim` for a batch delivered together: the same atomic step, except that an event whose previous attempt
   * was interrupted (a crash may have been its doing) is only ever claimed alone, so that a poison event
   * costs its neighbours at most the one interrupted attempt of the fresh batch it crashed with.
   */
  readonly claimBatch: (limit: number, policy: ClaimPolicy) => Effect.Effect<Claimed, Unavailable>
  /** `markDelivered` for several events, in one atomic step (the webhook fan-out included). */
  readonly markDeliveredMany: (ids: ReadonlyArray<string>) => Effect.Effect<void, Unavailable>
  /** Records the success of an event's delivery (whoever holds its lease now: the handlers are idempotent). */
  readonly markDelivered: (id: string) => Effect.Effect<void, Unavailable>
  /**
   * Records the failure of attempt `attempt` (counted by its claim, so not again): due again at
   * `retryAt` (epoch ms), or parked dead when `retryAt` is null. Ignored unless that attempt is the
   * event's latest and still outstanding (another claim has not taken the event since).
   */
  readonly markFailed: (id: string, attempt: number, error: string, retryAt: number | null) => Effect.Effect<void, Unavailable>
  readonly dead: Effect.Effect<ReadonlyArray<OutboxEvent>, Unavailable>
  /** Queues a dead event again (attempts kept, so it starts a new round); false when no dead event has that id. */
  readonly retry: (id: string) => Effect.Effect<boolean, Unavailable>
}>()("@forms/domain/Outbox") {}
