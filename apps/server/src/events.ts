/**
 * The server's event side (CONTRACT §6): the handler registry with the built-in handlers and any an
 * embedding service adds, the dispatcher as a background fiber, and the OutboxSignal that wakes it.
 */
import { Effect, Layer } from "effect"
import type { SqlClient } from "effect/sql"
import { SqlOutboxSignal } from "@forms/adapters-sql"
import {
  BuiltinHandlers,
  Dispatcher,
  type DispatcherOptions,
  type Engagements,
  type Enrichment,
  EventHandlers,
  type FormSchemas,
  InProcessSignal,
  type Outbox,
  type OutboxSignal,
  type SchemaCatalog,
  type Submissions,
  type ValueTargets
} from "@forms/domain"
import type { ServerConfig } from "./config.js"

/** What a handler layer given to the server may use: the registry, every port, the database. */
export type HandlerServices =
  | EventHandlers
  | Engagements
  | Enrichment
  | FormSchemas
  | Outbox
  | SchemaCatalog
  | Submissions
  | ValueTargets
  | SqlClient.SqlClient

/** The services beneath the registry. */
export type PortServices = Exclude<HandlerServices, EventHandlers>

/**
 * A layer that registers handlers, e.g. `EventHandlers.register(Effect.succeed(onSubmissionSubmitted(…)))`.
 * It runs after the built-in ones are registered and before the dispatcher starts.
 */
export type HandlersLayer<E = never> = Layer.Layer<never, E, HandlerServices>

/**
 * LISTEN/NOTIFY on a real PostgreSQL (DATABASE_URL): a commit in any process wakes this dispatcher. The
 * embedded database is one process, so an in-process signal is enough there.
 */
const makeOutboxSignalLayer = (config: ServerConfig): Layer.Layer<OutboxSignal> =>
  config.databaseUrl === undefined ? InProcessSignal.layer : SqlOutboxSignal.layer({ url: config.databaseUrl })

/**
 * The server's dispatcher claims 20 ms after a signal woke it: under load the events of the submits that
 * committed meanwhile are claimed and written as one batch (a constant number of statements for the batch, not
 * per event), for at most 20 ms more before an event is delivered.
 */
export const serverDispatcherDefaults: Partial<DispatcherOptions> = { gatherMs: 20 }

/**
 * The registry (built-in handlers first, then `extra` in order) and the dispatcher reading from it.
 * Built, the dispatcher runs as a fiber of the layer's scope; released, it is interrupted (a delivery in
 * flight is abandoned unrecorded and delivered again after its lease, as a new attempt), before anything
 * beneath it (the database) closes.
 */
const makeEventsLayer = <E>(
  extra: ReadonlyArray<HandlersLayer<E>> = [],
  options: Partial<DispatcherOptions> = {}
) => {
  // One after the other, so that handlers of a type run in this order: built-in ones, then `extra`.
  const Registry = extra.reduce<Layer.Layer<EventHandlers, E, PortServices>>(
    (registered, handlers) => handlers.pipe(Layer.provideMerge(registered)),
    BuiltinHandlers.layer.pipe(Layer.provideMerge(EventHandlers.layer()))
  )
  // Built first, released last: the line is written once the dispatcher fiber has been interrupted.
  const stopped = Layer.effectDiscard(Effect.addFinalizer(() => Effect.logInfo("event dispatcher stopped")))
  return Dispatcher.layer({ ...serverDispatcherDefaults, ...options }).pipe(Layer.provide(Registry), Layer.provide(stopped))
}

/** `ServerOutboxSignal.layer(…)`. */
export const ServerOutboxSignal = { layer: makeOutboxSignalLayer } as const

/** `Events.layer(…)`. */
export const Events = { layer: makeEventsLayer } as const
