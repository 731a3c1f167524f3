/**
 * The sender of messages in the background, with SMTP_URL set: every few seconds it sends what is due (the
 * claim's lease lets one process send a message at a time, so every process runs it). Without SMTP_URL there is
 * nothing to run: every message is recorded held.
 */
import { Duration, Effect, Layer, Redacted, Schedule } from "effect"
import { SmtpMailer } from "@forms/adapters-http"
import { SqlMessageRows } from "@forms/adapters-sql"
import { defaultMessagesConfig, messagesConfigLayer, sendDueMessages } from "@forms/domain"
import type { ServerConfig } from "./config.js"

export const messageSweepInterval = Duration.seconds(5)
/** Silence after which one phase of an SMTP attempt (connect, greeting, each answer) is given up. */
export const smtpTimeoutMs = 30_000

/** What the use cases and the sender read: whether messages are sent, from whom, the retry delays. */
export const messagesConfigOf = (config: ServerConfig) =>
  messagesConfigLayer({
    sending: config.mail.smtpUrl !== undefined,
    from: config.mail.from,
    retrySchedule: config.mail.retryScheduleSeconds,
    leaseMs: Math.max(defaultMessagesConfig.leaseMs, smtpTimeoutMs * 4)
  })

const sweepOnce = sendDueMessages().pipe(
  // A failed round (the database away) is logged and tried again at the next one; no address is logged.
  Effect.catchCause((cause) => Effect.logWarning("message sweep failed", cause))
)

/** `MessageSender.layer(config)`: needs the SQL client; the fiber stops with the layer. */
export const MessageSender = {
  layer: (config: ServerConfig) => {
    const smtpUrl = config.mail.smtpUrl
    if (smtpUrl === undefined) return Layer.empty
    return Layer.effectDiscard(
      Effect.repeat(sweepOnce, Schedule.spaced(messageSweepInterval)).pipe(Effect.forkScoped)
    ).pipe(
      Layer.provide(SqlMessageRows.layer),
      Layer.provide(SmtpMailer.layer({ url: Redacted.value(smtpUrl), timeoutMs: smtpTimeoutMs })),
      Layer.provide(messagesConfigOf(config))
    )
  }
} as const
