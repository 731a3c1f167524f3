/**
 * The reminders' sweep in the background, on every process (with or without SMTP_URL: without one, reminders are
 * recorded held like every message): every 30 seconds the shift reminders and section reminders whose moment has
 * come become messages. The store's step makes each at most once, however many processes sweep.
 */
import { Duration, Effect, Layer, Schedule } from "effect"
import { SqlReminders } from "@forms/adapters-sql"
import { makeRemindersDue, remindersConfigLayer } from "@forms/domain"
import type { ServerConfig } from "./config.js"
import { messagesConfigOf } from "./messageSender.js"

export const reminderSweepInterval = Duration.seconds(30)

/** What the sweep reads: the portal's hours before a due date. */
export const remindersConfigOf = (config: ServerConfig) =>
  remindersConfigLayer({ portalReminderHours: config.portalReminderHours })

const sweepOnce = makeRemindersDue().pipe(
  // A failed round (the database away) is logged and tried again at the next one; no address is logged.
  Effect.catchCause((cause) => Effect.logWarning("reminder sweep failed", cause))
)

/** `ReminderSweeper.layer(config)`: needs the SQL client; provides the reminders' store; the fiber stops with the layer. */
export const ReminderSweeper = {
  layer: (config: ServerConfig) =>
    Layer.effectDiscard(
      Effect.repeat(sweepOnce, Schedule.spaced(reminderSweepInterval)).pipe(Effect.forkScoped)
    ).pipe(
      Layer.provideMerge(SqlReminders.layer),
      Layer.provide(messagesConfigOf(config)),
      Layer.provide(remindersConfigOf(config))
    )
} as const
