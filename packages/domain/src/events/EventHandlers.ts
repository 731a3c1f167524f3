/** The registry of in-process event handlers: the built-in ones and any an embedding service adds. */
import { Context, Effect, Layer, type Scope } from "effect"
import {
  decodeSectionSubmitted,
  decodeSubmissionSubmitted,
  type SectionSubmittedPayload,
  SectionSubmittedType,
  type SubmissionSubmittedPayload,
  SubmissionSubmittedType
} from "./LifecycleEvents.js"
import type { EventType, OutboxEvent } from "./Outbox.js"

export interface EventHandler {
  /** Stable and unique: named in logs and in the error recorded on a failed delivery. */
  readonly name: string
  readonly type: EventType
  /**
   * Must be idempotent: delivery is at least once, so a redelivered event must change nothing the
   * second time. Any failure (or defect) fails the delivery, which is retried with backoff.
   */
  readonly handle: (event: OutboxEvent) => Effect.Effect<void, unknown>
}

/**
 * An event of an erased submission keeps only its ids and `erased: true` (CONTRACT §12): there is nothing
 * left to handle, and its delivery succeeds without calling the handler.
 */
export const isErased = (event: OutboxEvent): boolean => event.payload["erased"] === true

/** A `submission.submitted` handler that receives the decoded payload (a payload that does not decode fails). */
export const onSubmissionSubmitted = (
  name: string,
  handle: (payload: SubmissionSubmittedPayload, event: OutboxEvent) => Effect.Effect<void, unknown>
): EventHandler => ({
  name,
  type: SubmissionSubmittedType,
  handle: (event) =>
    isErased(event) ? Effect.void : Effect.flatMap(decodeSubmissionSubmitted(event.payload), (payload) => handle(payload, event))
})

/** A `section.submitted` handler that receives the decoded payload. */
export const onSectionSubmitted = (
  name: string,
  handle: (payload: SectionSubmittedPayload, event: OutboxEvent) => Effect.Effect<void, unknown>
): EventHandler => ({
  name,
  type: SectionSubmittedType,
  handle: (event) =>
    isErased(event) ? Effect.void : Effect.flatMap(decodeSectionSubmitted(event.payload), (payload) => handle(payload, event))
})

const isSingle = (made: EventHandler | ReadonlyArray<EventHandler>): made is EventHandler => "handle" in made

const makeRegistry = (initial: ReadonlyArray<EventHandler>) =>
  Effect.sync(() => {
    const handlers: Array<EventHandler> = [...initial]
    return EventHandlers.of({
      register: (handler) =>
        Effect.sync(() => {
          // Registering a name again replaces the handler in place, so a layer built twice adds nothing.
          const index = handlers.findIndex((existing) => existing.name === handler.name)
          if (index === -1) handlers.push(handler)
          else handlers[index] = handler
        }),
      handlersFor: (type) => Effect.sync(() => handlers.filter((handler) => handler.type === type))
    })
  })

export class EventHandlers extends Context.Service<EventHandlers, {
  /** Adds a handler (or replaces the one with its name). Handlers of a type run in registration order. */
  readonly register: (handler: EventHandler) => Effect.Effect<void>
  readonly handlersFor: (type: EventType) => Effect.Effect<ReadonlyArray<EventHandler>>
}>()("@forms/domain/EventHandlers") {
  /** A registry holding `handlers`, in this order; more can be added with `EventHandlers.register`. */
  static readonly layer = (handlers: ReadonlyArray<EventHandler> = []): Layer.Layer<EventHandlers> =>
    Layer.effect(EventHandlers, makeRegistry(handlers))

  /**
   * A layer that builds handlers (with whatever services they need) and registers them, in order,
   * into the registry it is provided with: how the server and embedders add their own.
   */
  static readonly register = <E, R>(
    make: Effect.Effect<EventHandler | ReadonlyArray<EventHandler>, E, R>
  ): Layer.Layer<never, E, Exclude<R, Scope.Scope> | EventHandlers> =>
    Layer.effectDiscard(
      Effect.gen(function*() {
        const registry = yield* EventHandlers
        const made = yield* make
        const list = isSingle(made) ? [made] : made
        for (const handler of list) yield* registry.register(handler)
      })
    )
}
