/**
 * Port: how a webhook message leaves the process (CONTRACT §13). The domain decides what is sent, to which
 * resolved address (the guard), when, and what an answer means; the adapter (HTTP over `node:http`/`https`
 * in adapters-http) only resolves, signs and sends. An embedder may swap it (a queue, a proxy).
 */
import { Context, type Effect, Schema } from "effect"

export const OutgoingMessage = Schema.Struct({
  url: Schema.String,
  /** The address the guard checked: the adapter connects to it (never resolves the host again). */
  address: Schema.String,
  headers: Schema.Record(Schema.String, Schema.String),
  body: Schema.String,
  timeoutMs: Schema.Number
})
export type OutgoingMessage = typeof OutgoingMessage.Type

/** An answer: its status and `Retry-After` (raw); the body was read up to a few KiB and dropped. */
export const TransportAnswer = Schema.Struct({
  _tag: Schema.Literal("Answer"),
  status: Schema.Number,
  retryAfter: Schema.NullOr(Schema.String)
})
export type TransportAnswer = typeof TransportAnswer.Type

/** No answer: refused connection, TLS failure, timeout, reset. `reason` is short and names no secret. */
export const TransportFailure = Schema.Struct({
  _tag: Schema.Literal("NoAnswer"),
  reason: Schema.String
})
export type TransportFailure = typeof TransportFailure.Type

export class WebhookTransport extends Context.Service<WebhookTransport, {
  /** The addresses `host` resolves to now (a literal address: itself); a failure is a reason. */
  readonly resolve: (host: string) => Effect.Effect<ReadonlyArray<string>, TransportFailure>
  /** base64 of HMAC-SHA256 of `content` with the decoded bytes of a `whsec_` secret. */
  readonly sign: (secret: string, content: string) => Effect.Effect<string>
  /** One POST, redirects not followed, ended after `timeoutMs`. */
  readonly send: (message: OutgoingMessage) => Effect.Effect<TransportAnswer | TransportFailure>
}>()("@forms/domain/WebhookTransport") {}
