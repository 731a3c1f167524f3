/**
 * LISTEN on one channel over a dedicated connection (not from the pool), for ever: a dropped connection is
 * reopened with exponential backoff. Used by `SqlOutboxSignal` (wake the dispatcher) and `FormSchemaCache`
 * (forget cached schemas).
 */
import { PgConnection } from "@effect/sql-pg"
import { Cause, Deferred, Duration, Effect, Queue, Redacted } from "effect"

export interface PgListenerOptions {
  readonly url: string | Redacted.Redacted
  /**
   * Only payloads equal to this schema (the notifiers send the schema they wrote in) count; an empty
   * payload always does; default: any. Set it when deployments share one database in different schemas.
   */
  readonly schema?: string | undefined
  /** Default 5 seconds. */
  readonly connectTimeout?: Duration.Input | undefined
  /** The first wait before reconnecting, doubled per failed attempt; default 250 ms. */
  readonly reconnectDelay?: Duration.Input | undefined
  /** The longest wait between attempts; default 30 seconds. */
  readonly maxReconnectDelay?: Duration.Input | undefined
  /** The listening session's `application_name`. */
  readonly applicationName: string
}

/** What a user of a listener configures (the `application_name` has a default per listener). */
export type ListenerOptions = Omit<PgListenerOptions, "applicationName"> & {
  readonly applicationName?: string | undefined
}

export interface ListenHandlers {
  /** LISTEN is in place (first connect and every reconnect): whatever was sent meanwhile is missed. */
  readonly onListening: Effect.Effect<void>
  /** The connection is gone (or could not be opened); a reconnect follows. */
  readonly onDropped: Effect.Effect<void>
  /** A notification of the channel for this schema. */
  readonly onNotification: Effect.Effect<void>
}

const millis = (input: Duration.Input | undefined, fallback: number): number =>
  input === undefined ? fallback : Duration.toMillis(Duration.fromInputUnsafe(input))

const describe = (cause: Cause.Cause<unknown>): string => {
  const error = Cause.squash(cause)
  return error instanceof Error ? error.message : String(error)
}

/**
 * Forks the listener into the current scope and waits for its first LISTEN (or its first failure to
 * connect: a server that is down does not fail the caller), so nothing committed after it is missed.
 */
export const listenScoped = (options: PgListenerOptions, channel: string, handlers: ListenHandlers) =>
  Effect.gen(function*() {
    const connectTimeoutMs = millis(options.connectTimeout, 5_000)
    const firstDelayMs = millis(options.reconnectDelay, 250)
    const maxDelayMs = millis(options.maxReconnectDelay, 30_000)
    const config: PgConnection.Config = {
      url: typeof options.url === "string" ? Redacted.make(options.url) : options.url,
      connectTimeout: Duration.millis(connectTimeoutMs),
      // A peer that vanished without closing the socket is noticed by TCP keepalive, not by a silent wait.
      keepAlive: Duration.seconds(30),
      applicationName: options.applicationName
    }
    const counts = (payload: string): boolean =>
      options.schema === undefined || payload === "" || payload === options.schema
    const ready = yield* Deferred.make<void>()
    let failures = 0

    const listenUntilDropped = Effect.scoped(Effect.gen(function*() {
      const connection = yield* PgConnection.make(config)
      const notifications = yield* connection.listen(channel)
      failures = 0
      yield* Deferred.succeed(ready, undefined)
      yield* handlers.onListening
      while (true) {
        const notification = yield* Queue.take(notifications)
        if (counts(notification.payload)) yield* handlers.onNotification
      }
    }))

    const reconnectAfter = (cause: Cause.Cause<unknown>) =>
      Effect.gen(function*() {
        failures += 1
        const delayMs = Math.min(firstDelayMs * 2 ** Math.min(failures - 1, 30), maxDelayMs)
        yield* handlers.onDropped
        yield* Deferred.succeed(ready, undefined)
        yield* Effect.logWarning("LISTEN connection lost or refused, reconnecting").pipe(
          Effect.annotateLogs({ channel, attempt: failures, delay_ms: delayMs, reason: describe(cause) })
        )
        yield* Effect.sleep(Duration.millis(delayMs))
      })

    yield* Effect.forkScoped(Effect.forever(
      listenUntilDropped.pipe(
        Effect.catchCause((cause) => Cause.hasInterruptsOnly(cause) ? Effect.failCause(cause) : reconnectAfter(cause))
      )
    ))
    yield* Deferred.await(ready).pipe(Effect.timeoutOption(Duration.millis(connectTimeoutMs + 1_000)))
  })
