import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, envelope, json, serverLayer } from "./harness.js"
import { FakePublicForms, openToken } from "./FakePublicForms.js"

const base = `/public/forms/${openToken}`
const key = "0192f1c4-aaaa-bbbb-cccc-000000000001"
const malformed = envelope("MALFORMED_JSON", "The request body must be a JSON object.")
const tooLarge = envelope("PAYLOAD_TOO_LARGE", "The request body is too large.")
const mediaType = envelope("UNSUPPORTED_MEDIA_TYPE", "A request body must be sent as application/json.")

layer(serverLayer(FakePublicForms, { config: { maxBodyBytes: 64 } }))("request checks", (it) => {
  describe("routes", () => {
    it.effect("an unknown route is 404 NOT_FOUND", () =>
      Effect.gen(function*() {
        for (const path of ["/nope", "/public/forms", "/public/forms/x/y/z/w/v", "/health"]) {
          const res = yield* call(path)
          assert.strictEqual(res.status, 404, path)
          assert.strictEqual(res.text, envelope("NOT_FOUND", "No such route."))
        }
      }))

    it.effect("a wrong method on a known path is 405 METHOD_NOT_ALLOWED with Allow", () =>
      Effect.gen(function*() {
        const res = yield* call(base, { method: "DELETE" })
        assert.strictEqual(res.status, 405)
        assert.strictEqual(res.text, envelope("METHOD_NOT_ALLOWED", "This route does not allow this method."))
        assert.strictEqual(res.headers.get("allow"), "GET, HEAD")
        const put = yield* call(`${base}/submissions`, json("PUT", {}))
        assert.strictEqual(put.status, 405)
        assert.strictEqual(put.headers.get("allow"), "POST")
        const get = yield* call(`${base}/submissions/abc/submit`)
        assert.strictEqual(get.status, 405)
      }))
  })

  describe("bodies, in the order 415, 413, 400, 422", () => {
    it.effect("a body that is not application/json is 415, with or without a charset accepted", () =>
      Effect.gen(function*() {
        const text = yield* call(`${base}/submissions`, { method: "POST", body: "{}", headers: { "content-type": "text/plain" } })
        assert.strictEqual(text.status, 415)
        assert.strictEqual(text.text, mediaType)
        const none = yield* call(`${base}/submissions`, { method: "POST", body: new TextEncoder().encode("{}") })
        assert.strictEqual(none.status, 415)
        const charset = yield* call(`${base}/submissions`, {
          method: "POST",
          body: JSON.stringify({ idempotency_key: key }),
          headers: { "content-type": "application/json; charset=UTF-8" }
        })
        assert.strictEqual(charset.status, 201)
        // 415 comes before 413 and 400
        const big = yield* call(`${base}/submissions`, { method: "POST", body: "x".repeat(100), headers: { "content-type": "text/plain" } })
        assert.strictEqual(big.status, 415)
      }))

    it.effect("a body over the limit is 413, by Content-Length or while streaming", () =>
      Effect.gen(function*() {
        const byLength = yield* call(`${base}/submissions`, {
          method: "POST",
          body: "{" + " ".repeat(100) + "}",
          headers: { "content-type": "application/json" }
        })
        assert.strictEqual(byLength.status, 413)
        assert.strictEqual(byLength.text, tooLarge)
        // refused unread: the rest of the upload is not read
        assert.strictEqual(byLength.headers.get("connection"), "close")
        const stream = new ReadableStream<Uint8Array>({
          start(controller) {
            for (let i = 0; i < 10; i++) controller.enqueue(new TextEncoder().encode("          "))
            controller.close()
          }
        })
        const chunked = yield* call(`${base}/submissions`, {
          method: "POST",
          body: stream,
          headers: { "content-type": "application/json" }
        })
        assert.strictEqual(chunked.status, 413)
        // 413 comes before 400
        assert.strictEqual(chunked.text, tooLarge)
      }))

    it.effect("malformed JSON, or JSON that is not an object, is 400 MALFORMED_JSON before 422", () =>
      Effect.gen(function*() {
        for (const body of ["{", "[1]", "null", "\"text\"", "12", "{\"a\":}"]) {
          const res = yield* call(`${base}/submissions`, { method: "POST", body, headers: { "content-type": "application/json" } })
          assert.strictEqual(res.status, 400, body)
          assert.strictEqual(res.text, malformed)
        }
        const bad = yield* call(`${base}/submissions/sub-1/submit`, {
          method: "POST",
          body: new Uint8Array([0x7b, 0xff, 0x7d]),
          headers: { "content-type": "application/json" }
        })
        assert.strictEqual(bad.status, 400)
      }))
  })

  describe("request id", () => {
    it.effect("a valid client x-request-id is echoed, any other replaced, on every response", () =>
      Effect.gen(function*() {
        const echoed = yield* call("/health/live", { headers: { "x-request-id": "abc.DEF_1:2-3" } })
        assert.strictEqual(echoed.headers.get("x-request-id"), "abc.DEF_1:2-3")
        const replaced = yield* call("/nope", { headers: { "x-request-id": "bad id!" } })
        const id = replaced.headers.get("x-request-id") ?? ""
        assert.notStrictEqual(id, "bad id!")
        assert.match(id, /^[A-Za-z0-9._:-]{1,128}$/)
        const long = yield* call(base, { headers: { "x-request-id": "a".repeat(129) } })
        assert.notStrictEqual(long.headers.get("x-request-id"), "a".repeat(129))
        const generated = yield* call(`${base}/submissions`, { method: "POST", body: "{", headers: { "content-type": "application/json" } })
        assert.match(generated.headers.get("x-request-id") ?? "", /^[0-9a-f-]{36}$/)
      }))
  })

  describe("system routes", () => {
    it.effect("health answers { data: { status: ok } }", () =>
      Effect.gen(function*() {
        for (const path of ["/health/live", "/health/ready"]) {
          const res = yield* call(path)
          assert.strictEqual(res.status, 200)
          assert.strictEqual(res.text, `{"data":{"status":"ok"}}`)
        }
      }))

    it.effect("/openapi.json is a raw OpenAPI 3.1 document listing every route", () =>
      Effect.gen(function*() {
        const res = yield* call("/openapi.json")
        assert.strictEqual(res.status, 200)
        const doc = JSON.parse(res.text)
        assert.strictEqual(doc.openapi, "3.1.0")
        // No public base URL configured: the server is the document's own origin.
        assert.deepStrictEqual(doc.servers, [{ url: "/" }])
        assert.deepStrictEqual(Object.keys(doc.paths).sort(), [
          "/admin/artists",
          "/admin/artists/{artistId}",
          "/admin/audit-log",
          "/admin/contacts",
          "/admin/contacts/{contactId}",
          "/admin/engagements",
          "/admin/engagements/{engagementId}",
          "/admin/engagements/{engagementId}/portal-link",
          "/admin/engagements/{engagementId}/sections/{sectionId}",
          "/admin/event-sections/{sectionId}",
          "/admin/events",
          "/admin/events/{eventId}",
          "/admin/events/{eventId}/sections",
          "/admin/events/{eventId}/time-slots",
          "/admin/files/{fileId}",
          "/admin/forms",
          "/admin/forms/{formId}",
          "/admin/forms/{formId}/export",
          "/admin/forms/{formId}/rotate-token",
          "/admin/forms/{formId}/submissions",
          "/admin/messages",
          "/admin/messages/{messageId}",
          "/admin/messages/{messageId}/retry",
          "/admin/organisation",
          "/admin/outbox",
          "/admin/outbox/{eventId}/retry",
          "/admin/submissions/{submissionId}",
          "/admin/submissions/{submissionId}/manage-link",
          "/admin/time-slots/{slotId}",
          "/admin/webhooks",
          "/admin/webhooks/{webhookId}",
          "/admin/webhooks/{webhookId}/deliveries",
          "/admin/webhooks/{webhookId}/deliveries/{deliveryId}/retry",
          "/admin/webhooks/{webhookId}/replay",
          "/admin/webhooks/{webhookId}/rotate-secret",
          "/admin/webhooks/{webhookId}/test",
          "/docs",
          "/embed.js",
          "/f/{token}",
          "/favicon.ico",
          "/health/live",
          "/health/ready",
          "/openapi.json",
          "/p/artist/{token}",
          "/p/artist/{token}/sections/{sectionId}",
          "/portal/{token}",
          "/public/forms/{token}",
          "/public/forms/{token}/sections",
          "/public/forms/{token}/submissions",
          "/public/forms/{token}/submissions/{submissionId}",
          "/public/forms/{token}/submissions/{submissionId}/files",
          "/public/forms/{token}/submissions/{submissionId}/files/{fileId}",
          "/public/forms/{token}/submissions/{submissionId}/submit",
          "/public/forms/{token}/time-slots",
          "/public/manage/{token}",
          "/public/manage/{token}/places/{slotId}"
        ])
        assert.deepStrictEqual(Object.keys(doc.paths["/public/forms/{token}/submissions"].post.responses).sort(), [
          "200", "201", "400", "404", "409", "413", "415", "422", "429", "500", "503"
        ])
        // Organiser routes: the bearer scheme, and 401 among their answers.
        const createEvent = doc.paths["/admin/events"].post
        assert.deepStrictEqual(createEvent.security, [{ bearer: [] }])
        assert.strictEqual(doc.components.securitySchemes.bearer.scheme.toLowerCase(), "bearer")
        assert.include(Object.keys(createEvent.responses), "401")
        assert.deepStrictEqual(doc.paths["/admin/webhooks"].post.security, [{ bearer: [] }])
        assert.include(Object.keys(doc.paths["/admin/webhooks/{webhookId}/test"].post.responses), "202")
        assert.strictEqual(createEvent.operationId, "adminCreateEvent")
        // The pages of §14 are text/html answers.
        for (const page of ["/f/{token}", "/portal/{token}"]) {
          assert.deepStrictEqual(Object.keys(doc.paths[page].get.responses["200"].content), ["text/html"])
          assert.deepStrictEqual(Object.keys(doc.paths[page].get.responses["404"].content), ["text/html"])
        }
        assert.deepStrictEqual(Object.keys(doc.paths["/embed.js"].get.responses).sort(), ["200", "304"])
        assert.deepStrictEqual(Object.keys(doc.paths["/favicon.ico"].get.responses).sort(), ["200", "304"])
        assert.deepStrictEqual(Object.keys(doc.paths["/favicon.ico"].get.responses["200"].content), ["image/svg+xml"])
      }))

    it.effect("/docs serves an HTML page, the same bytes under one ETag, revalidated by every cache", () =>
      Effect.gen(function*() {
        const res = yield* call("/docs")
        assert.strictEqual(res.status, 200)
        assert.match(res.headers.get("content-type") ?? "", /text\/html/)
        const etag = res.headers.get("etag") ?? ""
        assert.match(etag, /^"[A-Za-z0-9_-]{32}"$/)
        assert.strictEqual(res.headers.get("cache-control"), "no-cache")
        const again = yield* call("/docs")
        assert.deepStrictEqual([again.headers.get("etag"), again.text === res.text], [etag, true])
        const head = yield* call("/docs", { method: "HEAD" })
        assert.deepStrictEqual([head.status, head.headers.get("etag")], [200, etag])
      }))

    it.effect("/docs answers 304 with no body to If-None-Match holding its ETag (a list, the weak form, *), else 200", () =>
      Effect.gen(function*() {
        const etag = (yield* call("/docs")).headers.get("etag") ?? ""
        for (const held of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
          const res = yield* call("/docs", { headers: { "if-none-match": held } })
          // The body's length, not the body: a failure prints no megabytes of page.
          assert.deepStrictEqual([res.status, res.text.length, res.headers.get("etag"), res.headers.get("cache-control")], [
            304, 0, etag, "no-cache"
          ], held)
        }
        const stale = yield* call("/docs", { headers: { "if-none-match": "\"an-older-page\"" } })
        assert.deepStrictEqual([stale.status, stale.headers.get("etag")], [200, etag])
        assert.isAbove(stale.text.length, 100_000)
      }))
  })
})
