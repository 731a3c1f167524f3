/** Raw exchanges for the wire transcript: headers in the order the server wrote them, bodies with the volatile parts replaced. */
import { createHash } from "node:crypto"
import { request } from "node:http"

export interface Sent {
  readonly method: string
  readonly path: string
  readonly headers?: Record<string, string>
  readonly body?: unknown
  /** A body sent as it is (instead of `body`). */
  readonly raw?: string
}

export interface Exchange {
  /** What the transcript calls it: `METHOD template` of the definition. */
  readonly route: string
  readonly method: string
  readonly status: number
  /** Name and value, in the order they came. */
  readonly rawHeaders: ReadonlyArray<readonly [string, string]>
  readonly headers: Readonly<Record<string, string>>
  readonly text: string
}

/** One request over a fresh connection, the answer's raw headers kept. */
export const send = (base: string, route: string, sent: Sent): Promise<Exchange> =>
  new Promise((resolve, reject) => {
    const body = sent.raw ?? (sent.body === undefined ? undefined : JSON.stringify(sent.body))
    const headers = { ...(body === undefined ? {} : { "content-type": "application/json" }), ...sent.headers }
    const req = request(`${base}${sent.path}`, { method: sent.method, headers, agent: false }, (res) => {
      const chunks: Array<Buffer> = []
      res.on("data", (chunk: Buffer) => chunks.push(chunk))
      res.on("end", () => {
        const raw: Array<readonly [string, string]> = []
        for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) raw.push([res.rawHeaders[i] ?? "", res.rawHeaders[i + 1] ?? ""])
        resolve({
          route,
          method: sent.method,
          status: res.statusCode ?? 0,
          rawHeaders: raw,
          headers: Object.fromEntries(raw.map(([name, value]) => [name.toLowerCase(), value])),
          text: Buffer.concat(chunks).toString("utf8")
        })
      })
      res.on("error", reject)
    })
    req.on("error", reject)
    req.end(body)
  })

/** The `data` items of a list answer. */
export const itemsOf = (exchange: Exchange): ReadonlyArray<Record<string, unknown>> =>
  (JSON.parse(exchange.text) as { data: ReadonlyArray<Record<string, unknown>> }).data

// What differs from run to run: ids, instants, tokens and secrets, the origin with its port.
const volatile: ReadonlyArray<readonly [RegExp, string]> = [
  [/http:\/\/127\.0\.0\.1:\d+/g, "<origin>"],
  [/whsec_[A-Za-z0-9+/=]+/g, "<secret>"],
  [/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, "<uuid>"],
  [/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, "<instant>"],
  [/[A-Za-z0-9_-]{32,}/g, "<token>"]
]

export const scrub = (text: string): string => volatile.reduce((s, [pattern, by]) => s.replace(pattern, by), text)

/** Numbers that depend on timing. */
const volatileNumbers = new Set(["duration_ms"])

const scrubJson = (value: unknown, key = ""): unknown => {
  if (typeof value === "string") return scrub(value)
  if (typeof value === "number") return volatileNumbers.has(key) ? "<number>" : value
  if (Array.isArray(value)) return value.map((item) => scrubJson(item))
  if (typeof value === "object" && value !== null) {
    // Entries, not an object: the order of the members is what is compared.
    return Object.entries(value).map(([k, v]) => [k, scrubJson(v, k)])
  }
  return value
}

const headerValue = (name: string, value: string): string => {
  switch (name) {
    case "x-request-id":
    case "date":
    case "content-length":
      return `<${name}>`
    case "ratelimit":
      return value.replace(/r=\d+/, "r=<n>").replace(/t=\d+/, "t=<n>")
    case "retry-after":
      return "<seconds>"
    case "etag":
      return /^"\d+"$/.test(value) ? value : "<hash>"
    default:
      return scrub(value)
  }
}

const bodyOf = (exchange: Exchange): unknown => {
  const type = exchange.headers["content-type"] ?? ""
  if (exchange.text === "") return ""
  if (exchange.route === "GET /openapi.json") {
    // The document itself, but for `servers` (the port), as a digest: its bytes must not move either.
    const doc = JSON.parse(exchange.text) as Record<string, unknown>
    delete doc["servers"]
    return `sha256:${createHash("sha256").update(JSON.stringify(doc)).digest("hex")}`
  }
  if (type.startsWith("application/json")) return scrubJson(JSON.parse(exchange.text))
  if (type.startsWith("text/javascript")) return `<script of ${exchange.text.length > 0 ? "some" : "no"} bytes>`
  return scrub(exchange.text.replace(/\/embed\.js\?v=[A-Za-z0-9_-]+/g, "/embed.js?v=<version>"))
}

export const transcriptOf = (exchanges: ReadonlyArray<Exchange>) =>
  exchanges.map((exchange) => ({
    call: exchange.route.startsWith(`${exchange.method} `) ? exchange.route : `${exchange.method}, ${exchange.route}`,
    status: exchange.status,
    headers: exchange.rawHeaders.map(([name, value]) => `${name}: ${headerValue(name.toLowerCase(), value)}`),
    body: bodyOf(exchange)
  }))
