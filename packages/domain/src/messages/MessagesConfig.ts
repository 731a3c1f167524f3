/** How messages are sent: whether a mail server is configured, the sender address, the retry delays. */
import { Context, Layer } from "effect"

export interface MessagesConfigShape {
  /** False without `SMTP_URL`: every message is recorded `held` and never sent. */
  readonly sending: boolean
  /** The `From` header: `Festival <noreply@example.org>` or a bare address. */
  readonly from: string
  /** Seconds to wait before each retry after a 4xx answer, a time-out or a lost connection. */
  readonly retrySchedule: ReadonlyArray<number>
  /** How long a claimed message is leased to its sender before another may claim it (ms). */
  readonly leaseMs: number
  /** Messages claimed per sweep. */
  readonly batch: number
  /** The `recipient` policy: messages to one visitor-typed address per organisation within 24 hours. */
  readonly perRecipientPerDay: number
  /** Where links in messages point (PUBLIC_BASE_URL, else the address the server is bound to), without a final `/`. */
  readonly publicBaseUrl: string
}

export const defaultMessagesConfig: MessagesConfigShape = {
  sending: false,
  from: "Forms <noreply@localhost>",
  retrySchedule: [60, 300, 1800, 7200],
  leaseMs: 120_000,
  batch: 20,
  perRecipientPerDay: 5,
  publicBaseUrl: "http://localhost:3000"
}

/** Without a layer of its own: nothing is sent, every message is held (the embedded default without `SMTP_URL`). */
export const MessagesConfig = Context.Reference<MessagesConfigShape>("@forms/domain/MessagesConfig", {
  defaultValue: () => defaultMessagesConfig
})

export const messagesConfigLayer = (config: Partial<MessagesConfigShape> = {}) =>
  Layer.succeed(MessagesConfig, { ...defaultMessagesConfig, ...config })
