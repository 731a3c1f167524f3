/**
 * An in-memory `WebhookTransport`: hosts resolve from a table (after `resolveDelayMs`), answers come from a script
 * (default 200), every message sent is recorded. Signing is a keyed stand-in (not HMAC): the domain has no crypto, and what the
 * engine does with a signature is only to put it in the header. Use the Node transport for real signatures.
 */
import { Effect, Layer } from "effect"
import {
  type OutgoingMessage,
  type TransportAnswer,
  type TransportFailure,
  WebhookTransport
} from "../../webhooks/WebhookTransport.js"

export interface InMemoryTransportState {
  /** host → addresses; a host not listed fails to resolve. */
  readonly hosts: Map<string, ReadonlyArray<string>>
  /** Answers in order; once used up, a 200. */
  readonly script: Array<TransportAnswer | TransportFailure>
  readonly sent: Array<OutgoingMessage>
  /** How long a lookup takes, in ms of Effect's Clock (a slow name server); 0 by default. */
  resolveDelayMs: number
  /** How long a request takes before its scripted answer, in ms of Effect's Clock; 0 by default. */
  sendDelayMs: number
}

export const makeTransportState = (hosts: Record<string, ReadonlyArray<string>> = {}): InMemoryTransportState => ({
  hosts: new Map(Object.entries(hosts)),
  script: [],
  sent: [],
  resolveDelayMs: 0,
  sendDelayMs: 0
})

export const InMemoryWebhookTransport = {
  layer: (state: InMemoryTransportState): Layer.Layer<WebhookTransport> =>
    Layer.succeed(WebhookTransport, WebhookTransport.of({
      resolve: (host) => {
        const found = state.hosts.get(host)
        const answer = found === undefined ? Effect.fail({ _tag: "NoAnswer", reason: "ENOTFOUND" } as const) : Effect.succeed(found)
        return state.resolveDelayMs > 0 ? Effect.delay(answer, state.resolveDelayMs) : answer
      },
      sign: (secret, content) => Effect.succeed(`sig(${secret.length}:${content.length})`),
      send: (message) => {
        const answer = Effect.sync((): TransportAnswer | TransportFailure => {
          state.sent.push(message)
          return state.script.shift() ?? { _tag: "Answer", status: 200, retryAfter: null }
        })
        return state.sendDelayMs > 0 ? Effect.delay(answer, state.sendDelayMs) : answer
      }
    }))
} as const
