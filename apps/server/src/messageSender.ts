/**
 * The sender of messages in the background, with SMTP_URL set: every few seconds it sends what is due (the
 * claim's lease lets one process send a message at a time, so every process runs it). Without SMTP_URL there is
 * nothing to run: every message is recorded held.
 */
import { Duration, Effect, Layer, Redacted, Schedule } from "effect"
import { HttpServer } from "effect/http"
import { SmtpMailer } from "@forms/adapters-http"
import { SqlMessageRows } from "@forms/adapters-sql"
import { defaultMessagesConfig, messagesConfigLayer, sendDueMessages } from "@forms/domain"
import { baseUrlOf, type ServerConfig } from "./config.js"

export const messageSweepInterval = Duration.seconds(5)
/** Silence after which one phase of an SMTP attempt (connect, greeting, each answer) is given up. */
export const smtpTimeoutMs = 30_000

/** What the use cases and the sender read: whether messages are sent, from whom, the retry delays, where links point. */
export const messagesConfigOf = (config: ServerConfig, publicBaseUrl: string = baseUrlOf(config)) =>
  messagesConfigLayer({
    publicBaseUrl,
    sending: config.mail.smtpUrl !== undefined,
    from: config.mail.from,
    retrySchedule: config.mail.retryScheduleSeconds,
    perRecipientPerDay: config.mail.perRecipientPerDay,
    leaseMs: Math.max(defaultMessagesConfig.leaseMs, smtpTimeoutMs * 4)
  })

const sweepOnce = sendDueMessages().pipe(
  // A failed round (the database away) is logged and tried again at the next one; no address is logged.
  Effect.catchCause((cause) => Effect.logWarning("message sweep failed", cause))
)

/**
 * `MessageSender.layer(config)`: needs the SQL client, the token cipher and the bound HTTP server (links point at
 * PUBLIC_BASE_URL, else at its address); the fiber stops with the layer.
 */
export const MessageSender = {
  layer: (config: ServerConfig) => {
    const smtpUrl = config.mail.smtpUrl
    if (smtpUrl === undefined) return Layer.empty
    return Layer.effectDiscard(
      Effect.repeat(sweepOnce, Schedule.spaced(messageSweepInterval)).pipe(Effect.forkScoped)
    ).pipe(
      Layer.provide(SqlMessageRows.layer),
      Layer.provide(SmtpMailer.layer({ url: Redacted.value(smtpUrl), timeoutMs: smtpTimeoutMs })),
      Layer.provide(Layer.unwrap(Effect.map(HttpServer.HttpServer, (server) =>
        messagesConfigOf(config, baseUrlOf(config, server.address._tag === "UnixPathAddress" ? 0 : server.address.port)))))
    )
  }
} as const
