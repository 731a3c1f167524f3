/**
 * An in-memory `WebhookTransport`: hosts resolve from a table (after `resolveDelayMs`), answers come from a script
 * (default 200), every message sent is recorded. Signing is a keyed stand-in (not HMAC): the domain has no crypto, and what the
 * engine does with a signature is only to put it in the header. Use the Node transport for real signatures.
 * A host can be made dead: its lookups never answer (`hangingLookups`), or its requests are never answered and
 * end at their timeout (`silentHosts`), as a receiver that accepts the connection and never answers.
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
  /** Hosts whose lookup never answers. */
  readonly hangingLookups: Set<string>
  /** Hosts whose requests are never answered: each takes its whole `timeoutMs`, then fails as timed out. */
  readonly silentHosts: Set<string>
  /** Requests in flight per host now, and the most there ever were at once. */
  readonly inFlight: Map<string, number>
  readonly peakInFlight: Map<string, number>
}

export const makeTransportState = (hosts: Record<string, ReadonlyArray<string>> = {}): InMemoryTransportState => ({
  hosts: new Map(Object.entries(hosts)),
  script: [],
  sent: [],
  resolveDelayMs: 0,
  sendDelayMs: 0,
  hangingLookups: new Set(),
  silentHosts: new Set(),
  inFlight: new Map(),
  peakInFlight: new Map()
})

const hostOf = (url: string) => /^[a-z]+:\/\/([^/:?#]+)/i.exec(url)?.[1]?.toLowerCase() ?? ""

export const InMemoryWebhookTransport = {
  layer: (state: InMemoryTransportState): Layer.Layer<WebhookTransport> =>
    Layer.succeed(WebhookTransport, WebhookTransport.of({
      resolve: (host) => {
        if (state.hangingLookups.has(host)) return Effect.never
        const found = state.hosts.get(host)
        const answer = found === undefined ? Effect.fail({ _tag: "NoAnswer", reason: "ENOTFOUND" } as const) : Effect.succeed(found)
        return state.resolveDelayMs > 0 ? Effect.delay(answer, state.resolveDelayMs) : answer
      },
      sign: (secret, content) => Effect.succeed(`sig(${secret.length}:${content.length})`),
      send: (message) => {
        const host = hostOf(message.url)
        const enter = Effect.sync(() => {
          const now = (state.inFlight.get(host) ?? 0) + 1
          state.inFlight.set(host, now)
          state.peakInFlight.set(host, Math.max(now, state.peakInFlight.get(host) ?? 0))
        })
        const leave = Effect.sync(() => state.inFlight.set(host, (state.inFlight.get(host) ?? 1) - 1))
        if (state.silentHosts.has(host)) {
          const silent = Effect.sync(() => state.sent.push(message)).pipe(
            Effect.andThen(Effect.sleep(message.timeoutMs)),
            Effect.as<TransportFailure>({ _tag: "NoAnswer", reason: `timed out after ${message.timeoutMs} ms` })
          )
          return Effect.acquireUseRelease(enter, () => silent, () => leave)
        }
        const answer = Effect.sync((): TransportAnswer | TransportFailure => {
          state.sent.push(message)
          return state.script.shift() ?? { _tag: "Answer", status: 200, retryAfter: null }
        })
        return Effect.acquireUseRelease(enter, () => state.sendDelayMs > 0 ? Effect.delay(answer, state.sendDelayMs) : answer, () => leave)
      }
    }))
} as const
