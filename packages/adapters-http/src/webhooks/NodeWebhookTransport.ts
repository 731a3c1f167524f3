/**
 * The `WebhookTransport` port over Node's `http`/`https`: connects to the address the domain's
 * guard checked (a pinned lookup: the host is never resolved a second time, so DNS rebinding cannot slip
 * past the guard), one fresh connection per attempt (no pool to exhaust), no redirects followed, the whole
 * attempt ended after its timeout, and at most `maxAnswerBytes` of the answer read, then dropped. With tracing on,
 * the request carries the attempt's span as a W3C `traceparent`, so a traced receiver continues the trace.
 *
 * Hosts are resolved by asking the name servers directly (c-ares, on the event loop), not by the system's
 * `getaddrinfo`, which holds one of libuv's four worker threads until the system resolver gives up: a few lookups
 * of names whose name server never answers would hold them all, and every other organisation's lookups (and the
 * process's file and crypto work) would wait behind them. A lookup cut off by the attempt's timeout is cancelled.
 * Only a name the name servers say does not exist (or has no address), or that no name server takes, is then
 * asked of the system's resolver, for names the hosts file or a search domain gives.
 */
import { Effect, Layer, Option, References, Tracer } from "effect"
import { HttpTraceContext } from "effect/http"
import { createHmac } from "node:crypto"
import { lookup, Resolver } from "node:dns/promises"
import { request as httpRequest } from "node:http"
import { request as httpsRequest } from "node:https"
import { isIP, type LookupFunction } from "node:net"
import { type OutgoingMessage, type TransportAnswer, type TransportFailure, WebhookTransport } from "@forms/domain"

/** How much of a receiver's answer is read (and dropped) before the connection is closed. */
export const maxAnswerBytes = 4096

const noAnswer = (reason: string): TransportFailure => ({ _tag: "NoAnswer", reason })

const describe = (error: unknown): string => {
  if (typeof error === "object" && error !== null) {
    const code = "code" in error && typeof error.code === "string" ? error.code : undefined
    const message = "message" in error && typeof error.message === "string" ? error.message : ""
    return (code === undefined ? message : `${code}: ${message}`).slice(0, 200)
  }
  return String(error).slice(0, 200)
}

/** base64 HMAC-SHA256 with the decoded bytes of a `whsec_` secret (Standard Webhooks). */
export const signWebhook = (secret: string, content: string): string =>
  createHmac("sha256", Buffer.from(secret.startsWith("whsec_") ? secret.slice(6) : secret, "base64"))
    .update(content, "utf8")
    .digest("base64")

const send = (message: OutgoingMessage) =>
  Effect.callback<TransportAnswer | TransportFailure>((resume) => {
    let done = false
    const finish = (result: TransportAnswer | TransportFailure) => {
      if (done) return
      done = true
      clearTimeout(timer)
      resume(Effect.succeed(result))
    }
    let url: URL
    try {
      url = new URL(message.url)
    } catch {
      finish(noAnswer("the URL does not parse"))
      return
    }
    const family = isIP(message.address)
    const pinned: LookupFunction = (_host, options, callback) => {
      if (options.all === true) callback(null, [{ address: message.address, family }])
      else callback(null, message.address, family)
    }
    const hostname = url.hostname.replace(/^\[(.*)\]$/, "$1")
    const https = url.protocol === "https:"
    const req = (https ? httpsRequest : httpRequest)({
      protocol: url.protocol,
      hostname,
      port: url.port === "" ? (https ? 443 : 80) : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method: "POST",
      headers: { ...message.headers, "content-length": String(Buffer.byteLength(message.body, "utf8")) },
      lookup: pinned,
      agent: false,
      ...(https && isIP(hostname) === 0 ? { servername: hostname } : {})
    })
    // An answer whose status arrived in time counts even if its body is still dribbling in at the timeout.
    let answered: TransportAnswer | undefined
    const timer = setTimeout(() => {
      finish(answered ?? noAnswer(`timed out after ${message.timeoutMs} ms`))
      req.destroy()
    }, message.timeoutMs)
    req.on("error", (error) => finish(noAnswer(describe(error))))
    req.on("response", (res) => {
      const status = res.statusCode ?? 0
      const header = res.headers["retry-after"]
      const answer: TransportAnswer = { _tag: "Answer", status, retryAfter: typeof header === "string" ? header : null }
      answered = answer
      let read = 0
      res.on("data", (chunk: Buffer) => {
        read += chunk.length
        if (read > maxAnswerBytes) {
          finish(answer)
          res.destroy()
        }
      })
      res.on("end", () => finish(answer))
      res.on("error", () => finish(answer))
      res.on("close", () => finish(answer))
    })
    req.end(message.body)
    // Interrupted (the engine stops): the connection is closed.
    return Effect.sync(() => {
      done = true
      clearTimeout(timer)
      req.destroy()
    })
  })

/** The current span as a `traceparent` header, when spans are exported (a tracer other than Effect's native one). */
const withTraceparent = (message: OutgoingMessage) =>
  Effect.withFiber((fiber) => {
    if (!fiber.getRef(References.TracerEnabled) || fiber.getRef(Tracer.Tracer) === Tracer.nativeTracer) {
      return Effect.succeed(message)
    }
    return Effect.map(Effect.option(Effect.currentSpan), (span) =>
      Option.isSome(span) && span.value.sampled
        ? { ...message, headers: { ...message.headers, traceparent: HttpTraceContext.toHeaders(span.value)["traceparent"] ?? "" } }
        : message)
  })

const codeOf = (error: unknown): string | undefined =>
  typeof error === "object" && error !== null && "code" in error && typeof error.code === "string" ? error.code : undefined

/**
 * Quick answers that leave the hosts file to ask: the name does not exist or has no address of that family, or
 * no name server takes the query (none listening, or refused). A timeout is not one of them.
 */
const absent: ReadonlySet<string | undefined> = new Set(["ENOTFOUND", "ENODATA", "ECONNREFUSED", "EREFUSED"])

/** The system's resolver (the hosts file, search domains): only after the name servers found nothing. */
const systemLookup = (host: string) =>
  Effect.tryPromise({
    try: () => lookup(host, { all: true, verbatim: true }),
    catch: (error) => noAnswer(describe(error))
  }).pipe(Effect.map((entries) => entries.map((entry) => entry.address)))

export interface NodeWebhookTransportOptions {
  /** The name servers hosts are resolved with (`address[:port]`); default: the system's (`/etc/resolv.conf`). */
  readonly nameServers?: ReadonlyArray<string> | undefined
}

/** A and AAAA at once, on a resolver of this lookup's own, cancelled when the lookup ends or is interrupted. */
const resolveWith = (options: NodeWebhookTransportOptions) => (host: string) =>
  Effect.acquireUseRelease(
    Effect.sync(() => {
      const resolver = new Resolver()
      if (options.nameServers !== undefined) resolver.setServers([...options.nameServers])
      return resolver
    }),
    (resolver) => Effect.promise(() => Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)])),
    (resolver) => Effect.sync(() => resolver.cancel())
  ).pipe(Effect.flatMap((answers) => {
    const addresses = answers.flatMap((answer) => answer.status === "fulfilled" ? answer.value : [])
    if (addresses.length > 0) return Effect.succeed(addresses)
    const failures = answers.flatMap((answer) => answer.status === "rejected" ? [answer.reason] : [])
    if (failures.every((error) => absent.has(codeOf(error)))) return systemLookup(host)
    return Effect.fail(noAnswer(describe(failures.find((error) => !absent.has(codeOf(error))))))
  }))

const make = (options: NodeWebhookTransportOptions = {}): Layer.Layer<WebhookTransport> =>
  Layer.succeed(WebhookTransport, WebhookTransport.of({
    resolve: resolveWith(options),
    sign: (secret, content) => Effect.sync(() => signWebhook(secret, content)),
    send: (message) => Effect.flatMap(withTraceparent(message), send)
  }))

export const NodeWebhookTransport = {
  /** Node's `http`/`https`, hosts resolved with the system's name servers: `NodeWebhookTransport.layer`. */
  layer: make(),
  /** The same with options (other name servers). */
  make
} as const
