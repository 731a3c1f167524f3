import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
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

describe("the Node webhook transport", () => {
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
