/**
 * The `OutboxSignal` of a real PostgreSQL server: LISTEN on `forms_outbox` over a dedicated connection (not
 * from the pool), each notification a wake-up of an in-process signal. PGlite has no LISTEN: use the
 * domain's `InProcessSignal.layer` there.
 */
import { PgConnection } from "@effect/sql-pg"
import { Cause, Deferred, Duration, Effect, Layer, Queue, Redacted } from "effect"
import { makeInProcessSignal, OutboxSignal } from "@forms/domain"
import { outboxChannel } from "./OutboxRecord.js"

export interface SqlOutboxSignalOptions {
  readonly url: string | Redacted.Redacted
  /**
   * Wake only for events recorded in this schema (the writers' `current_schema()`, the first of their
   * search path); default: any. Set it when deployments share one database in different schemas.
   */
  readonly schema?: string | undefined
  /** Default 5 seconds. */
  readonly connectTimeout?: Duration.Input | undefined
  /** The first wait before reconnecting, doubled per failed attempt; default 250 ms. */
  readonly reconnectDelay?: Duration.Input | undefined
  /** The longest wait between attempts; default 30 seconds. */
  readonly maxReconnectDelay?: Duration.Input | undefined
  /** The listening session's `application_name`; default `forms-portal-listener`. */
  readonly applicationName?: string | undefined
}

const millis = (input: Duration.Input | undefined, fallback: number): number =>
  input === undefined ? fallback : Duration.toMillis(Duration.fromInputUnsafe(input))

const describe = (cause: Cause.Cause<unknown>): string => {
  const error = Cause.squash(cause)
  return error instanceof Error ? error.message : String(error)
}

/**
 * Builds the signal and forks its listener into the current scope. The build waits for the first LISTEN
 * (or the first failure to connect: a server that is down does not fail the layer), so nothing committed
 * after it is missed. A dropped connection is reopened with exponential backoff, for ever; each (re)connect
 * wakes the dispatcher once, for what was recorded while nobody listened. `notify` is in-process only: the
 * writers' transactions NOTIFY the other processes themselves.
 */
export const makeSqlOutboxSignal = (options: SqlOutboxSignalOptions) =>
  Effect.gen(function*() {
    const local = yield* makeInProcessSignal
    const connectTimeoutMs = millis(options.connectTimeout, 5_000)
    const firstDelayMs = millis(options.reconnectDelay, 250)
    const maxDelayMs = millis(options.maxReconnectDelay, 30_000)
    const config: PgConnection.Config = {
      url: typeof options.url === "string" ? Redacted.make(options.url) : options.url,
      connectTimeout: Duration.millis(connectTimeoutMs),
      // A peer that vanished without closing the socket is noticed by TCP keepalive, not by a silent wait.
      keepAlive: Duration.seconds(30),
      applicationName: options.applicationName ?? "forms-portal-listener"
    }
    const wakes = (payload: string): boolean =>
      options.schema === undefined || payload === "" || payload === options.schema
    const ready = yield* Deferred.make<void>()
    let failures = 0

    const listenUntilDropped = Effect.scoped(Effect.gen(function*() {
      const connection = yield* PgConnection.make(config)
      const notifications = yield* connection.listen(outboxChannel)
      failures = 0
      yield* Deferred.succeed(ready, undefined)
      yield* local.notify
      while (true) {
        const notification = yield* Queue.take(notifications)
        if (wakes(notification.payload)) yield* local.notify
      }
    }))

    const reconnectAfter = (cause: Cause.Cause<unknown>) =>
      Effect.gen(function*() {
        failures += 1
        const delayMs = Math.min(firstDelayMs * 2 ** Math.min(failures - 1, 30), maxDelayMs)
        yield* Deferred.succeed(ready, undefined)
        yield* Effect.logWarning("outbox listener: no LISTEN connection, reconnecting").pipe(
          Effect.annotateLogs({ channel: outboxChannel, attempt: failures, delay_ms: delayMs, reason: describe(cause) })
        )
        yield* Effect.sleep(Duration.millis(delayMs))
      })

    const listenForever = Effect.gen(function*() {
      while (true) {
        yield* listenUntilDropped.pipe(
          Effect.catchCause((cause) => Cause.hasInterruptsOnly(cause) ? Effect.failCause(cause) : reconnectAfter(cause))
        )
      }
    })

    yield* Effect.forkScoped(listenForever)
    yield* Deferred.await(ready).pipe(Effect.timeoutOption(Duration.millis(connectTimeoutMs + 1_000)))
    return OutboxSignal.of({ notify: local.notify, wait: local.wait })
  })

export const SqlOutboxSignal = {
  /** LISTEN/NOTIFY on a real server (never fails to build; a lost connection is reopened in the background). */
  layer: (options: SqlOutboxSignalOptions): Layer.Layer<OutboxSignal> => Layer.effect(OutboxSignal, makeSqlOutboxSignal(options))
} as const
