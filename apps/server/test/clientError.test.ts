/**
 * Requests Node's HTTP parser refuses are answered in the error envelope (CONTRACT §7: BAD_REQUEST,
 * HEADERS_TOO_LARGE) with an `x-request-id`, then the connection closes. Raw sockets: no client would send
 * these.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { HttpServer } from "effect/http"
import { connect } from "node:net"
import { envelope, liveOptions, testServer } from "./harness.js"

interface RawAnswer {
  readonly statusLine: string
  readonly headers: Record<string, string>
  readonly body: string
}

/** Sends `bytes` on a new connection and reads until the server closes it. */
const send = (bytes: Buffer) =>
  Effect.flatMap(HttpServer.HttpServer, (server) =>
    Effect.promise(() =>
      new Promise<RawAnswer>((resolve, reject) => {
        const port = server.address._tag === "UnixPathAddress" ? 0 : server.address.port
        const socket = connect(port, "127.0.0.1", () => socket.write(bytes))
        const chunks: Array<Buffer> = []
        socket.on("data", (chunk: Buffer) => chunks.push(chunk))
        socket.on("error", reject)
        // Ends only when the server closes the connection: a kept-alive one would make the test time out.
        socket.on("close", () => {
          const text = Buffer.concat(chunks).toString("latin1")
          const end = text.indexOf("\r\n\r\n")
          const [head, body] = end < 0 ? [text, ""] : [text.slice(0, end), text.slice(end + 4)]
          const [statusLine = "", ...lines] = head.split("\r\n")
          const headers = Object.fromEntries(lines.map((line) => {
            const colon = line.indexOf(":")
            return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()]
          }))
          resolve({ statusLine, headers, body })
        })
      })
    ))

const badRequest = envelope("BAD_REQUEST", "The request is malformed.")
const headersTooLarge = envelope("HEADERS_TOO_LARGE", "The request headers are too large.")

const expectEnvelope = (answer: RawAnswer, statusLine: string, body: string) => {
  assert.strictEqual(answer.statusLine, statusLine)
  assert.strictEqual(answer.headers["content-type"], "application/json")
  assert.match(answer.headers["x-request-id"] ?? "", /^[0-9a-f-]{36}$/)
  assert.strictEqual(answer.headers["connection"], "close")
  assert.strictEqual(answer.headers["content-length"], String(Buffer.byteLength(body)))
  assert.strictEqual(answer.body, body)
}

const request = (head: string) => Buffer.from(`${head}\r\nHost: 127.0.0.1\r\n\r\n`, "latin1")

layer(testServer("embedded"), liveOptions)("requests the HTTP parser refuses", (it) => {
  it.effect("a Content-Length that is not a number: 400 BAD_REQUEST in the envelope, then the connection closes", () =>
    Effect.gen(function*() {
      const answer = yield* send(Buffer.from(
        "POST /public/forms/test-open-token-0001/submissions HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
          "Content-Type: application/json\r\nContent-Length: ten\r\n\r\n{}",
        "latin1"
      ))
      expectEnvelope(answer, "HTTP/1.1 400 Bad Request", badRequest)
    }))

  it.effect("an unknown method: 400 BAD_REQUEST", () =>
    Effect.gen(function*() {
      expectEnvelope(yield* send(request("FROBNICATE /health/live HTTP/1.1")), "HTTP/1.1 400 Bad Request", badRequest)
    }))

  it.effect("raw bytes above 0x7E in the path: 400 BAD_REQUEST", () =>
    Effect.gen(function*() {
      for (const byte of ["\x7f", "\xff", "\xe9"]) {
        const answer = yield* send(request(`GET /public/forms/t${byte}ken HTTP/1.1`))
        expectEnvelope(answer, "HTTP/1.1 400 Bad Request", badRequest)
      }
    }))

  it.effect("headers over 16 KiB: 431 HEADERS_TOO_LARGE", () =>
    Effect.gen(function*() {
      const answer = yield* send(request(`GET /health/live HTTP/1.1\r\nX-Padding: ${"a".repeat(17 * 1024)}`))
      expectEnvelope(answer, "HTTP/1.1 431 Request Header Fields Too Large", headersTooLarge)
    }))

  it.effect("a malformed request after a good one on a kept-alive connection: the first answer whole, then the envelope", () =>
    Effect.gen(function*() {
      const answer = yield* send(Buffer.concat([
        request("GET /health/live HTTP/1.1"),
        request("GET /health/live HTTP/9.9x")
      ]))
      // The first answer is complete; the second begins after its body.
      assert.strictEqual(answer.statusLine, "HTTP/1.1 200 OK")
      assert.include(answer.body, "HTTP/1.1 400 Bad Request")
      assert.include(answer.body, badRequest)
    }))
})
