/**
 * The `OutboxSignal` of a real PostgreSQL server: LISTEN on `forms_outbox` over a dedicated connection (not
 * from the pool), each notification a wake-up of an in-process signal. PGlite has no LISTEN: use the
 * domain's `InProcessSignal.layer` there.
 */
import { Effect, Layer } from "effect"
import { OutboxSignal } from "@forms/domain"
import { makeInProcessSignal } from "@forms/domain/internal"
import { listenScoped, type ListenerOptions } from "../connection/PgListener.js"
import { outboxChannel } from "./OutboxRecord.js"

/** `applicationName` defaults to `forms-portal-listener`. */
export type SqlOutboxSignalOptions = ListenerOptions

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
    yield* listenScoped(
      { ...options, applicationName: options.applicationName ?? "forms-portal-listener" },
      outboxChannel,
      { onListening: local.notify, onDropped: Effect.void, onNotification: local.notify }
    )
    return OutboxSignal.of({ notify: local.notify, wait: local.wait })
  })

export const SqlOutboxSignal = {
  /** LISTEN/NOTIFY on a real server (never fails to build; a lost connection is reopened in the background). */
  layer: (options: SqlOutboxSignalOptions): Layer.Layer<OutboxSignal> => Layer.effect(OutboxSignal, makeSqlOutboxSignal(options))
} as const
