/**
 * Port: how a webhook message leaves the process (CONTRACT §13). The domain decides what is sent, to which
 * resolved address (the guard), when, and what an answer means; the adapter (HTTP over `node:http`/`https`
 * in adapters-http) only resolves, signs and sends. An embedder may swap it (a queue, a proxy).
 */
import { Context, type Effect } from "effect"

export interface OutgoingMessage {
  readonly url: string
  /** The address the guard checked: the adapter connects to it (never resolves the host again). */
  readonly address: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  readonly timeoutMs: number
}

/** An answer: its status and `Retry-After` (raw); the body was read up to a few KiB and dropped. */
export interface TransportAnswer {
  readonly _tag: "Answer"
  readonly status: number
  readonly retryAfter: string | null
}

/** No answer: refused connection, TLS failure, timeout, reset. `reason` is short and names no secret. */
export interface TransportFailure {
  readonly _tag: "NoAnswer"
  readonly reason: string
}

export class WebhookTransport extends Context.Service<WebhookTransport, {
  /** The addresses `host` resolves to now (a literal address: itself); a failure is a reason. */
  readonly resolve: (host: string) => Effect.Effect<ReadonlyArray<string>, TransportFailure>
  /** base64 of HMAC-SHA256 of `content` with the decoded bytes of a `whsec_` secret. */
  readonly sign: (secret: string, content: string) => Effect.Effect<string>
  /** One POST, redirects not followed, ended after `timeoutMs`. */
  readonly send: (message: OutgoingMessage) => Effect.Effect<TransportAnswer | TransportFailure>
}>()("@forms/domain/WebhookTransport") {}
