/** Delivers outbox events to the registered handlers, at least once, with backoff and dead-parking (CONTRACT §6). */
import { Cause, Clock, Effect, Exit, Layer, Option, Random } from "effect"
import type { Unavailable } from "../shared/errors.js"
import { attemptInRound, type BackoffPolicy, defaultBackoff, nextRetryAt } from "./Backoff.js"
import { type EventHandler, EventHandlers } from "./EventHandlers.js"
import { type ClaimPolicy, interruptedAttemptError, Outbox, type OutboxEvent } from "./Outbox.js"
import { OutboxSignal } from "./OutboxSignal.js"

export interface DispatcherOptions {
  /**
   * Events a batch takes at most, claimed together and delivered concurrently (each within the delivery
   * timeout, so the lease covers the batch). A crash charges the batch's events one interrupted attempt; an
   * event found interrupted is then claimed and delivered alone, so a poison event parks without its neighbours.
   */
  readonly batchSize: number
  /** The longest wait between two claims when no signal arrives, in ms. */
  readonly pollIntervalMs: number
  /**
   * After a signal woke it, how long the dispatcher waits before claiming, in ms, so that the events of
   * submits committing close together are claimed and written as one batch (0: it claims at once). It
   * delays each event's delivery by at most this much; a full batch is followed by the next at once.
   */
  readonly gatherMs: number
  /** A delivery (all handlers of one event) running longer than this fails, in ms. */
  readonly deliveryTimeoutMs: number
  /** Added to `deliveryTimeoutMs` to make a claim's lease: time to record the outcome, in ms. */
  readonly leaseMarginMs: number
  readonly backoff: BackoffPolicy
}

export const defaultDispatcherOptions: DispatcherOptions = {
  batchSize: 20,
  pollIntervalMs: 2_000,
  gatherMs: 0,
  deliveryTimeoutMs: 30_000,
  leaseMarginMs: 30_000,
  backoff: defaultBackoff
}

/** The lease (delivery timeout plus margin: 60 s by default) and round length the dispatcher claims with. */
export const claimPolicy = (options: Partial<DispatcherOptions> = {}): ClaimPolicy => {
  const resolved = { ...defaultDispatcherOptions, ...options }
  return { leaseMs: resolved.deliveryTimeoutMs + resolved.leaseMarginMs, maxAttempts: resolved.backoff.maxAttempts }
}

export interface BatchResult {
  /** Events the batch's claims took: delivered + retrying + dead. */
  readonly claimed: number
  readonly delivered: number
  /** Failed and due again later. */
  readonly retrying: number
  /** Failed for the last allowed time, or found with the last attempt of its round interrupted: parked dead. */
  readonly dead: number
  /** The earliest `retryAt` this batch set (epoch ms), or null. */
  readonly nextRetryAt: number | null
  /** Every `retryAt` this batch set. */
  readonly retryAts: ReadonlyArray<number>
}

const maxErrorLength = 500

/** The error recorded on a failed delivery: the handler and the error's tag (or name) and message, never values. */
const describeFailure = (handler: string, cause: Cause.Cause<unknown>): string => {
  const error = Cause.squash(cause)
  let text: string
  if (typeof error === "object" && error !== null) {
    const tag = "_tag" in error && typeof error._tag === "string"
      ? error._tag
      : "name" in error && typeof error.name === "string"
      ? error.name
      : "Error"
    const message = "message" in error && typeof error.message === "string" ? error.message : ""
    // A payload that does not decode is described without the decoder's text, which may quote values.
    text = tag === "SchemaError" ? "SchemaError: the payload does not decode" : message === "" ? tag : `${tag}: ${message}`
  } else {
    text = String(error)
  }
  return `${handler}: ${text}`.slice(0, maxErrorLength)
}

class DeliveryTimeout extends Error {
  readonly _tag = "DeliveryTimeout"
}

interface HandlerFailure {
  readonly handler: string
  readonly cause: Cause.Cause<unknown>
}

type Outcome = { readonly _tag: "Delivered" } | { readonly _tag: "Failed"; readonly retryAt: number | null }

/**
 * Runs every handler of the event's type in order; the first failure or defect fails the delivery
 * (all run again on the retry). An interruption is passed on as it is, never recorded as a failure.
 */
const runHandlers = (
  handlers: ReadonlyArray<EventHandler>,
  event: OutboxEvent
): Effect.Effect<void, HandlerFailure> =>
  Effect.forEach(
    handlers,
    (handler) =>
      Effect.suspend(() => handler.handle(event)).pipe(
        Effect.catchCause((cause) =>
          Cause.hasInterruptsOnly(cause)
            ? Effect.failCause(Cause.interrupt())
            : Effect.fail<HandlerFailure>({ handler: handler.name, cause })
        )
      ),
    { discard: true }
  )

type Delivery = { readonly event: OutboxEvent; readonly outcome: Outcome }

/** Runs the event's handlers under the delivery timeout: Delivered, or Failed with the error to record. */
const deliver = (
  event: OutboxEvent,
  options: DispatcherOptions
): Effect.Effect<{ readonly delivered: true } | { readonly delivered: false; readonly error: string }, never, EventHandlers> =>
  Effect.gen(function*() {
    const handlers = yield* (yield* EventHandlers).handlersFor(event.type)
    const exit = yield* Effect.exit(
      runHandlers(handlers, event).pipe(
        Effect.timeoutOrElse({
          duration: options.deliveryTimeoutMs,
          orElse: () =>
            Effect.fail<HandlerFailure>({
              handler: "dispatcher",
              cause: Cause.fail(new DeliveryTimeout(`delivery timed out after ${options.deliveryTimeoutMs} ms`))
            })
        })
      )
    )
    if (Exit.isSuccess(exit)) return { delivered: true } as const
    // Interrupted (the dispatcher is stopping): record nothing; the next claim after the lease counts it as interrupted.
    if (Cause.hasInterruptsOnly(exit.cause)) return yield* Effect.failCause(Cause.interrupt())
    const failure = Cause.findErrorOption(exit.cause)
    const error = Option.isSome(failure)
      ? describeFailure(failure.value.handler, failure.value.cause)
      : describeFailure("dispatcher", exit.cause)
    return { delivered: false, error } as const
  })

/** Records a failed delivery: the claim counted this attempt, whose number decides the backoff. */
const recordFailure = (
  event: OutboxEvent,
  error: string,
  options: DispatcherOptions
): Effect.Effect<Outcome, Unavailable, Outbox> =>
  Effect.gen(function*() {
    const outbox = yield* Outbox
    const attempts = event.attempts
    const now = yield* Clock.currentTimeMillis
    const retryAt = nextRetryAt(now, attemptInRound(attempts, options.backoff), yield* Random.next, options.backoff)
    yield* outbox.markFailed(event.id, attempts, error, retryAt)
    yield* Effect.logWarning("event delivery failed").pipe(
      Effect.annotateLogs({ event_id: event.id, event_type: event.type, attempts, dead: retryAt === null, error })
    )
    return { _tag: "Failed", retryAt } as const
  })

/**
 * Delivers the claimed events concurrently, each with its own handlers and timeout (so a slow or failing
 * event holds up or fails no other); the writes their handlers make at the same moment are batched by the
 * handlers (EnrichmentBatching.ts). Then the delivered events are recorded in one step and each failure
 * on its own. All of it runs within the claim's lease: the deliveries take at most the delivery timeout.
 */
const deliverAll = (
  events: ReadonlyArray<OutboxEvent>,
  options: DispatcherOptions
): Effect.Effect<ReadonlyArray<Delivery>, Unavailable, Outbox | EventHandlers> =>
  Effect.gen(function*() {
    const outbox = yield* Outbox
    const results = yield* Effect.forEach(events, (event) => deliver(event, options), { concurrency: "unbounded" })
    const delivered = events.filter((_, i) => results[i]?.delivered === true)
    if (delivered.length > 0) yield* outbox.markDeliveredMany(delivered.map((event) => event.id))
    const out: Array<Delivery> = []
    for (let i = 0; i < events.length; i++) {
      const event = events[i]!
      const result = results[i]!
      out.push({
        event,
        outcome: result.delivered ? { _tag: "Delivered" } : yield* recordFailure(event, result.error, options)
      })
    }
    return out
  })

/**
 * Claims up to `batchSize` events (`claimBatch`: an event whose last attempt was interrupted comes alone)
 * and delivers them together: markDeliveredMany for the successes, markFailed with the backoff for each
 * failure. Claims again while a claim came back full (or took an interrupted event alone), until
 * `batchSize` events were claimed; a claim that came back short found nothing more due.
 */
export const dispatchBatch = (
  options: Partial<DispatcherOptions> = {}
): Effect.Effect<BatchResult, Unavailable, Outbox | EventHandlers> =>
  Effect.gen(function*() {
    const resolved = { ...defaultDispatcherOptions, ...options }
    const outbox = yield* Outbox
    const policy = claimPolicy(resolved)
    let claimed = 0
    let delivered = 0
    let retrying = 0
    let dead = 0
    const retryAts: Array<number> = []
    while (claimed < resolved.batchSize) {
      const limit = resolved.batchSize - claimed
      const { events, parked } = yield* outbox.claimBatch(limit, policy)
      for (const event of parked) {
        claimed++
        dead++
        yield* Effect.logWarning("event parked dead: its last attempt was interrupted").pipe(
          Effect.annotateLogs({ event_id: event.id, event_type: event.type, attempts: event.attempts })
        )
      }
      claimed += events.length
      for (const { outcome } of yield* deliverAll(events, resolved)) {
        if (outcome._tag === "Delivered") delivered++
        else if (outcome.retryAt === null) dead++
        else {
          retrying++
          retryAts.push(outcome.retryAt)
        }
      }
      const alone = events.length === 1 && events[0]?.last_error === interruptedAttemptError
      if (events.length + parked.length < limit && !alone && parked.length === 0) break
      if (events.length + parked.length === 0) break
    }
    const nextRetryAt = retryAts.length === 0 ? null : Math.min(...retryAts)
    return { claimed, delivered, retrying, dead, nextRetryAt, retryAts }
  }).pipe(Effect.withSpan("Dispatcher.dispatchBatch"))

/**
 * Runs batches while they come back full, then waits for a signal, for the poll interval, or for
 * the earliest retry it scheduled, whichever comes first; forever. A batch that was not full ended
 * on a claim that found nothing due: an event recorded since then comes with a signal (kept until
 * the next wait), so claiming again at once would only find nothing. An unreachable store is logged
 * and tried again after the poll interval. Interrupt it (or close the scope of `Dispatcher.start`) to
 * stop: a delivery in flight is abandoned unrecorded, and delivered again once its lease has run out
 * (its attempt counted as interrupted).
 */
export const runDispatcher = (
  options: Partial<DispatcherOptions> = {}
): Effect.Effect<never, never, Outbox | EventHandlers | OutboxSignal> =>
  Effect.gen(function*() {
    const resolved = { ...defaultDispatcherOptions, ...options }
    const signal = yield* OutboxSignal
    // The retries this dispatcher scheduled: it wakes for the earliest (others' retries: by polling).
    let retries: Array<number> = []
    while (true) {
      const result = yield* dispatchBatch(resolved).pipe(
        Effect.catchTag("Unavailable", (error) =>
          Effect.logWarning("event dispatch: store unavailable").pipe(
            Effect.annotateLogs({ reason: error.reason }),
            Effect.as(null)
          ))
      )
      if (result !== null) retries.push(...result.retryAts)
      if (result !== null && result.claimed >= resolved.batchSize) continue
      const now = yield* Clock.currentTimeMillis
      retries = retries.filter((at) => at > now)
      const timeout = retries.length === 0
        ? resolved.pollIntervalMs
        : Math.min(resolved.pollIntervalMs, Math.min(...retries) - now)
      const woken = yield* signal.wait(timeout)
      if (woken && resolved.gatherMs > 0) yield* Effect.sleep(resolved.gatherMs)
    }
  })

export const Dispatcher = {
  /** Forks the dispatcher loop into the current scope: it stops when the scope closes. */
  start: (options: Partial<DispatcherOptions> = {}) => Effect.forkScoped(runDispatcher(options)),
  /** A layer whose lifetime is the dispatcher's: built, it runs; released, it stops. */
  layer: (
    options: Partial<DispatcherOptions> = {}
  ): Layer.Layer<never, never, Outbox | EventHandlers | OutboxSignal> =>
    Layer.effectDiscard(Effect.forkScoped(runDispatcher(options)))
} as const

