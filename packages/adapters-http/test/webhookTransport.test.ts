import { assert, describe, it } from "@effect/vitest"
import { Effect, Fiber, Option, Tracer } from "effect"
import { pbkdf2 } from "node:crypto"
import { createSocket, type Socket } from "node:dgram"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { WebhookTransport } from "@forms/domain"
import { NodeWebhookTransport, signWebhook, verifyWebhook } from "../src/index.js"

const listen = (handler: Parameters<typeof createServer>[1]) =>
  Effect.acquireRelease(
    Effect.promise(() => new Promise<Server>((resolve) => {
      const server = createServer(handler)
      server.listen(0, "127.0.0.1", () => resolve(server))
    })),
    (server) => Effect.promise(() => new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    }))
  )
const portOf = (server: Server) => (server.address() as AddressInfo).port

const send = (url: string, timeoutMs = 2_000) =>
  Effect.flatMap(WebhookTransport, (t) =>
    t.send({ url, address: "127.0.0.1", headers: { "content-type": "application/json", "webhook-id": "x" }, body: "{}", timeoutMs })
  ).pipe(Effect.provide(NodeWebhookTransport.layer))

/** A tracer with a backend (any tracer but Effect's native one): its spans are exported, so they are propagated. */
const exportingTracer = Tracer.make({ span: (options) => new Tracer.NativeSpan(options) })

describe("the Node webhook transport", () => {
  it.effect("carries the attempt's span as traceparent when spans are exported, and none otherwise", () =>
    Effect.scoped(Effect.gen(function*() {
      const seen: Array<string | undefined> = []
      const server = yield* listen((req, res) => {
        seen.push(req.headers["traceparent"] as string | undefined)
        req.resume()
        res.writeHead(200).end()
      })
      const url = `http://127.0.0.1:${portOf(server)}/in`
      yield* send(url).pipe(Effect.withSpan("attempt"))
      const span = yield* send(url).pipe(
        Effect.andThen(Effect.currentSpan),
        Effect.withSpan("attempt"),
        Effect.provideService(Tracer.Tracer, exportingTracer)
      )
      assert.strictEqual(seen[0], undefined)
      assert.strictEqual(seen[1], `00-${span.traceId}-${span.spanId}-01`)
    })))

  it.effect("connects to the checked address (never resolving the host again), sends the headers, reads a bounded answer", () =>
    Effect.scoped(Effect.gen(function*() {
      let host = ""
      const server = yield* listen((req, res) => {
        host = req.headers.host ?? ""
        req.resume()
        res.writeHead(200)
        res.end("x".repeat(1_000_000))
      })
      const answer = yield* send(`http://receiver.invalid:${portOf(server)}/in`)
      assert.deepStrictEqual(answer, { _tag: "Answer", status: 200, retryAfter: null })
      assert.strictEqual(host, `receiver.invalid:${portOf(server)}`)
    })))

  it.effect("a redirect is answered as it is, not followed; Retry-After is passed on; a hang times out", () =>
    Effect.scoped(Effect.gen(function*() {
      const server = yield* listen((req, res) => {
        req.resume()
        if (req.url === "/hang") return
        if (req.url === "/dribble") {
          res.writeHead(200)
          return res.write("a")
        }
        if (req.url === "/busy") {
          res.writeHead(503, { "retry-after": "7" })
          return res.end()
        }
        res.writeHead(302, { location: "/elsewhere" })
        res.end()
      })
      const base = `http://127.0.0.1:${portOf(server)}`
      assert.deepStrictEqual(yield* send(`${base}/redirect`), { _tag: "Answer", status: 302, retryAfter: null })
      assert.deepStrictEqual(yield* send(`${base}/busy`), { _tag: "Answer", status: 503, retryAfter: "7" })
      assert.deepStrictEqual(yield* send(`${base}/hang`, 300), { _tag: "NoAnswer", reason: "timed out after 300 ms" })
      // A 2xx in time whose body never ends: the status counts, the connection is closed at the timeout.
      assert.deepStrictEqual(yield* send(`${base}/dribble`, 300), { _tag: "Answer", status: 200, retryAfter: null })
    })))
})

/**
 * A name server on loopback UDP: `answer` gives a name's IPv4 address (an A record; no AAAA record), null for a
 * name that does not exist (NXDOMAIN), or "silent" to never answer. It records every name asked.
 */
const nameServer = (answer: (name: string) => string | null | "silent") =>
  Effect.acquireRelease(
    Effect.promise(() => new Promise<{ socket: Socket; asked: Array<string> }>((resolve) => {
      const asked: Array<string> = []
      const socket = createSocket("udp4")
      socket.on("message", (query, peer) => {
        const labels: Array<string> = []
        let at = 12
        while ((query[at] ?? 0) > 0) {
          const length = query[at] ?? 0
          labels.push(query.subarray(at + 1, at + 1 + length).toString("ascii"))
          at += 1 + length
        }
        const questionEnd = at + 5
        const type = query.readUInt16BE(at + 1)
        const name = labels.join(".").toLowerCase()
        asked.push(name)
        const address = answer(name)
        if (address === "silent") return
        const records = address !== null && type === 1 ? 1 : 0
        const header = Buffer.alloc(12)
        header.writeUInt16BE(query.readUInt16BE(0), 0)
        header.writeUInt16BE(address === null ? 0x8183 : 0x8180, 2)
        header.writeUInt16BE(1, 4)
        header.writeUInt16BE(records, 6)
        const record = records === 0 || address === null
          ? Buffer.alloc(0)
          : Buffer.concat([Buffer.from([0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4]), Buffer.from(address.split(".").map(Number))])
        socket.send(Buffer.concat([header, query.subarray(12, questionEnd), record]), peer.port, peer.address)
      })
      socket.bind(0, "127.0.0.1", () => resolve({ socket, asked }))
    })),
    ({ socket }) => Effect.sync(() => socket.close())
  ).pipe(Effect.map(({ socket, asked }) => ({ server: `127.0.0.1:${socket.address().port}`, asked })))

const resolveWith = (server: string, host: string) =>
  Effect.flatMap(WebhookTransport, (t) => t.resolve(host)).pipe(Effect.provide(NodeWebhookTransport.make({ nameServers: [server] })))

describe("the Node webhook transport's lookups", () => {
  it.effect("ask the name servers; a name they do not know is asked of the hosts file", () =>
    Effect.scoped(Effect.gen(function*() {
      const dns = yield* nameServer((name) => name === "hooks.example.test" ? "93.184.216.34" : null)
      assert.deepStrictEqual(yield* resolveWith(dns.server, "hooks.example.test"), ["93.184.216.34"])
      const local = yield* resolveWith(dns.server, "localhost")
      assert.isTrue(local.some((address) => address === "127.0.0.1" || address === "::1"), local.join())
      assert.include(dns.asked, "localhost")
      const missing = yield* Effect.flip(resolveWith(dns.server, "missing.example.test"))
      assert.strictEqual(missing._tag, "NoAnswer")
    })))

  it.live("a name server that never answers holds no worker thread, and the lookup cut off by the attempt ends", () =>
    Effect.scoped(Effect.gen(function*() {
      const dns = yield* nameServer(() => "silent")
      const names = Array.from({ length: 8 }, (_, i) => `hang${i}.example.test`)
      // Eight lookups that hang (more than libuv's four worker threads), each cut off after 3 s as an attempt is.
      const lookups = yield* Effect.forkChild(Effect.forEach(names, (name) =>
        Effect.timeoutOption(resolveWith(dns.server, name), 3_000), { concurrency: "unbounded" }))
      yield* Effect.sleep(200)
      // Work on libuv's worker threads finishes while they hang: none of those threads is held by a lookup.
      yield* Effect.promise(() =>
        Promise.all(Array.from({ length: 4 }, () =>
          new Promise<void>((done, fail) => pbkdf2("x", "salt", 1, 32, "sha256", (error) => error === null ? done() : fail(error))))))
      assert.isUndefined(lookups.pollUnsafe(), "the lookups were still waiting")
      assert.deepStrictEqual(yield* Fiber.join(lookups), names.map(() => Option.none()))
      for (const name of names) assert.include(dns.asked, name)
    })), 20_000)
})

describe("verifyWebhook", () => {
  const secret = `whsec_${Buffer.alloc(32, 7).toString("base64")}`
  const old = `whsec_${Buffer.alloc(32, 9).toString("base64")}`
  const body = JSON.stringify({ type: "webhook.test", timestamp: "2027-01-01T00:00:00.000Z", data: { webhook_id: "w" } })
  const now = 1_800_000_000_000
  const ts = String(now / 1000)
  const headers = (signature: string) => ({ "webhook-id": "msg_1", "webhook-timestamp": ts, "webhook-signature": signature })
  it("accepts any v1 signature (both secrets during a rotation), refuses tampering, old timestamps and missing headers", () => {
    const content = `msg_1.${ts}.${body}`
    const both = `v1,${signWebhook(secret, content)} v1,${signWebhook(old, content)}`
    const ok = verifyWebhook(secret, headers(both), body, { now })
    assert.isTrue(ok.ok)
    if (ok.ok) assert.strictEqual(ok.id, "msg_1")
    assert.isTrue(verifyWebhook(old, new Headers(headers(both)), body, { now }).ok)
    assert.deepStrictEqual(verifyWebhook(secret, headers(both), `${body} `, { now }), { ok: false, reason: "no valid signature" })
    assert.deepStrictEqual(verifyWebhook(secret, headers(both), body, { now: now + 301_000 }), { ok: false, reason: "timestamp outside the tolerance" })
    assert.deepStrictEqual(verifyWebhook(secret, {}, body, { now }), { ok: false, reason: "missing webhook headers" })
    assert.deepStrictEqual(verifyWebhook(secret, headers(`v2,${signWebhook(secret, content)}`), body, { now }), { ok: false, reason: "no valid signature" })
  })
})
