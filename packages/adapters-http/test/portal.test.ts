import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer, Logger } from "effect"
import { call, envelope, json, serverLayer } from "./harness.js"
import {
  downPortalToken,
  goneToken,
  limitedToken,
  portalCalls,
  portalToken
} from "./FakeArtistPortal.js"
import { FakePublicForms } from "./FakePublicForms.js"

const base = `/p/artist/${portalToken}`
const travel = `${base}/sections/as-travel`
const policy = `"portal";q=30;w=60`
const portalNotFound = envelope("PORTAL_NOT_FOUND", "No portal has this token.")
const sectionNotFound = envelope("SECTION_NOT_FOUND", "This portal has no such section.")
const gone = envelope("ARTIST_GONE", "The artist of this portal no longer exists.")
const required = envelope("VALIDATION_FAILED", "One or more values are invalid.", {
  arrival: [{ rule: "required", message: "This field is required." }]
})

const fieldsBytes = `[{"slug":"arrival","label":"Arrival","type":"date","is_required":true,"options":null,` +
  `"validation_rules":{"min":"2027-08-01"},"is_unique":false,"position":1,"visible_if":null,"help":null},` +
  `{"slug":"mode","label":"Mode","type":"select","is_required":false,"options":[{"value":"car","label":"Car"}],` +
  `"validation_rules":null,"is_unique":false,"position":2,"visible_if":null,"help":null}]`

const logged: Array<{ readonly message: unknown; readonly annotations: Record<string, unknown> }> = []
const CaptureLogs = Logger.layer([Logger.map(Logger.formatStructured, (entry) => {
  logged.push({ message: entry.message, annotations: entry.annotations })
})])

const noRateLimitHeaders = (headers: Headers) => {
  assert.isNull(headers.get("ratelimit"))
  assert.isNull(headers.get("ratelimit-policy"))
  assert.isNull(headers.get("retry-after"))
}

const server = serverLayer(FakePublicForms, {
  config: {
    maxBodyBytes: 256,
    sizeLimits: { maxValuesKeys: 3, maxStringLength: 20, maxArrayItems: 3 },
    publicBaseUrl: "https://forms.example.org"
  }
}).pipe(Layer.provide(CaptureLogs))

layer(server)("artist portal routes", (it) => {
  describe("GET summary", () => {
    it.effect("answers the summary in its envelope with ISO submitted_at and the portal RateLimit fields", () =>
      Effect.gen(function*() {
        const res = yield* call(base)
        assert.strictEqual(res.status, 200)
        assert.match(res.headers.get("content-type") ?? "", /^application\/json/)
        assert.strictEqual(
          res.text,
          `{"data":{"engagement":{"id":"eng-1","event":{"id":"ev-sat","name":"Saturday"}},` +
            `"artist":{"id":"ma-1","name":"The Band"},"sections":[` +
            `{"id":"as-travel","name":"Travel","status":"submitted","submitted_at":"2026-11-22T10:00:00.000Z","available":true,` +
            `"locked":true,"due_at":"2026-11-22T09:59:59.000Z","locks_at":"2026-11-22T10:00:00.000Z","overdue":false},` +
            `{"id":"as-hosp","name":"hospitality","status":"pending","submitted_at":null,"available":false,` +
            `"locked":false,"due_at":"2026-11-22T09:59:59.999Z","locks_at":null,"overdue":true}]}}`
        )
        assert.strictEqual(res.headers.get("ratelimit-policy"), policy)
        assert.strictEqual(res.headers.get("ratelimit"), `"portal";r=29;t=60`)
        assert.isNull(res.headers.get("retry-after"))
        assert.strictEqual(portalCalls.at(-1)?.client.address, "127.0.0.1")
      }))

    it.effect("404 PORTAL_NOT_FOUND and 410 ARTIST_GONE come before the limit: exact bytes, no RateLimit fields", () =>
      Effect.gen(function*() {
        for (const path of ["/p/artist/nope", "/p/artist/nope/sections/as-travel"]) {
          const res = yield* call(path)
          assert.strictEqual(res.status, 404, path)
          assert.strictEqual(res.text, portalNotFound)
          noRateLimitHeaders(res.headers)
          const post = yield* call(path.replace(/\/p\/artist\/nope$/, "/p/artist/nope/sections/x"), json("POST", {}))
          assert.strictEqual(post.text, portalNotFound)
        }
        const goneRes = yield* call(`/p/artist/${goneToken}`)
        assert.strictEqual(goneRes.status, 410)
        assert.strictEqual(goneRes.text, gone)
        noRateLimitHeaders(goneRes.headers)
        const gonePost = yield* call(`/p/artist/${goneToken}/sections/as-travel`, json("POST", { values: {} }))
        assert.strictEqual(gonePost.status, 410)
        assert.strictEqual(gonePost.text, gone)
      }))

    it.effect("429 RATE_LIMITED carries Retry-After, RateLimit r=0 and the policy", () =>
      Effect.gen(function*() {
        for (const req of [call(`/p/artist/${limitedToken}`), call(`/p/artist/${limitedToken}/sections/x`, json("POST", {}))]) {
          const res = yield* req
          assert.strictEqual(res.status, 429)
          assert.strictEqual(res.text, envelope("RATE_LIMITED", "Too many requests. Try again later."))
          assert.strictEqual(res.headers.get("retry-after"), "42")
          assert.strictEqual(res.headers.get("ratelimit"), `"portal";r=0;t=42`)
          assert.strictEqual(res.headers.get("ratelimit-policy"), policy)
        }
      }))

    it.effect("an unreachable database is 503 UNAVAILABLE without RateLimit fields", () =>
      Effect.gen(function*() {
        const res = yield* call(`/p/artist/${downPortalToken}`)
        assert.strictEqual(res.status, 503)
        assert.strictEqual(res.text, envelope("UNAVAILABLE", "The service is temporarily unavailable. Nothing was written."))
        noRateLimitHeaders(res.headers)
      }))
  })

  describe("GET section", () => {
    it.effect("answers the section, its public fields (no maps_to, no option tags) and the draft values", () =>
      Effect.gen(function*() {
        const res = yield* call(travel)
        assert.strictEqual(res.status, 200)
        assert.strictEqual(
          res.text,
          `{"data":{"section":{"id":"as-travel","name":"Travel","status":"pending","submitted_at":null},` +
            `"fields":${fieldsBytes},"values":{"arrival":"2027-08-19"}}}`
        )
        assert.strictEqual(res.headers.get("ratelimit"), `"portal";r=29;t=60`)
        assert.deepStrictEqual([res.headers.get("content-language"), res.headers.get("vary")], ["en", "Accept-Language"])
      }))

    it.effect("answers the fields' texts in the language chosen by Accept-Language or lang, a missing text in the default's", () =>
      Effect.gen(function*() {
        const dutch = fieldsBytes.replace(`"label":"Arrival"`, `"label":"Aankomst"`).replace(`"label":"Car"`, `"label":"Auto"`)
        for (const [path, headers] of [[travel, { "accept-language": "nl-BE, en;q=0.5" }], [`${travel}?lang=NL`, {}]] as const) {
          const res = yield* call(path, { headers })
          assert.strictEqual(res.status, 200)
          assert.strictEqual(
            res.text,
            `{"data":{"section":{"id":"as-travel","name":"Travel","status":"pending","submitted_at":null},` +
              `"fields":${dutch},"values":{"arrival":"2027-08-19"}}}`
          )
          assert.deepStrictEqual([res.headers.get("content-language"), res.headers.get("vary")], ["nl", "Accept-Language"])
        }
      }))

    it.effect("404 SECTION_NOT_FOUND comes after the limit and carries its RateLimit fields", () =>
      Effect.gen(function*() {
        const res = yield* call(`${base}/sections/as-hosp`)
        assert.strictEqual(res.status, 404)
        assert.strictEqual(res.text, sectionNotFound)
        assert.strictEqual(res.headers.get("ratelimit"), `"portal";r=28;t=59`)
        assert.strictEqual(res.headers.get("ratelimit-policy"), policy)
        assert.isNull(res.headers.get("retry-after"))
      }))
  })

  describe("POST section", () => {
    it.effect("submits the body's values and answers the section after the submit", () =>
      Effect.gen(function*() {
        const res = yield* call(travel, json("POST", { values: { arrival: "2027-08-20", __proto__x: 1 } }))
        assert.strictEqual(res.status, 200)
        assert.strictEqual(
          res.text,
          `{"data":{"section":{"id":"as-travel","name":"Travel","status":"submitted","submitted_at":"2026-11-22T10:01:00.000Z"},` +
            `"fields":${fieldsBytes},"values":{"arrival":"2027-08-20","__proto__x":1}}}`
        )
        assert.strictEqual(res.headers.get("ratelimit"), `"portal";r=29;t=60`)
      }))

    it.effect("no body, an empty body, `{}` and a body without values all submit `{}`", () =>
      Effect.gen(function*() {
        const requests = [
          { method: "POST" },
          { method: "POST", body: "", headers: { "content-type": "application/json" } },
          json("POST", {}),
          json("POST", { other: 1 })
        ]
        for (const request of requests) {
          const res = yield* call(travel, request)
          assert.strictEqual(res.status, 422)
          assert.strictEqual(res.text, required)
          assert.strictEqual(res.headers.get("ratelimit"), `"portal";r=26;t=57`)
          assert.deepStrictEqual(portalCalls.at(-1)?.values, {})
        }
      }))

    it.effect("a `__proto__` key reaches the use case as a plain key", () =>
      Effect.gen(function*() {
        const res = yield* call(travel, {
          method: "POST",
          body: `{"values":{"__proto__":{"x":1},"arrival":"2027-08-20"}}`,
          headers: { "content-type": "application/json" }
        })
        assert.strictEqual(res.status, 200)
        const values = portalCalls.at(-1)?.values ?? {}
        assert.isTrue(Object.hasOwn(values, "__proto__"))
        assert.isNull(Object.getPrototypeOf(values))
      }))

    it.effect("request shape comes before the token: 415, 413, 400, 422 on an unknown token", () =>
      Effect.gen(function*() {
        const path = "/p/artist/nope/sections/x"
        const media = yield* call(path, { method: "POST", body: "{}", headers: { "content-type": "text/plain" } })
        assert.strictEqual(media.status, 415)
        assert.strictEqual(media.text, envelope("UNSUPPORTED_MEDIA_TYPE", "A request body must be sent as application/json."))
        const large = yield* call(path, json("POST", { values: { a: "x".repeat(300) } }))
        assert.strictEqual(large.status, 413)
        assert.strictEqual(large.text, envelope("PAYLOAD_TOO_LARGE", "The request body is too large."))
        const malformed = yield* call(path, { method: "POST", body: "[1]", headers: { "content-type": "application/json" } })
        assert.strictEqual(malformed.status, 400)
        assert.strictEqual(malformed.text, envelope("MALFORMED_JSON", "The request body must be a JSON object."))
        const shape = yield* call(path, json("POST", { values: [1] }))
        assert.strictEqual(shape.status, 422)
        assert.strictEqual(shape.text, envelope("VALIDATION_FAILED", "One or more values are invalid.", {
          values: [{ rule: "invalid", message: "Must be an object mapping field slugs to values." }]
        }))
        noRateLimitHeaders(shape.headers)
        const limits = yield* call(path, json("POST", { values: { a: "x".repeat(21), b: [1, 2, 3, 4], c: 1, d: 1 } }))
        assert.strictEqual(limits.status, 422)
        const fields = JSON.parse(limits.text).error.fields
        assert.deepStrictEqual(Object.keys(fields).sort(), ["a", "b", "values"])
        assert.strictEqual(fields.values[0].rule, "max_length")
      }))

    it.effect("SECTION_NOT_FOUND after the limit; a defect is 500 INTERNAL with no values", () =>
      Effect.gen(function*() {
        const missing = yield* call(`${base}/sections/as-hosp`, json("POST", { values: { arrival: "2027-08-20" } }))
        assert.strictEqual(missing.status, 404)
        assert.strictEqual(missing.text, sectionNotFound)
        assert.strictEqual(missing.headers.get("ratelimit"), `"portal";r=27;t=58`)
        const boom = yield* call(travel, json("POST", { values: { arrival: "boom" } }))
        assert.strictEqual(boom.status, 500)
        assert.strictEqual(boom.text, envelope("INTERNAL", "An unexpected error occurred."))
      }))

    it.effect("409 SECTION_LOCKED after the limit, with its RateLimit fields", () =>
      Effect.gen(function*() {
        const locked = yield* call(`${base}/sections/as-locked`, json("POST", { values: { arrival: "2027-08-20" } }))
        assert.strictEqual(locked.status, 409)
        assert.strictEqual(locked.text, envelope("SECTION_LOCKED", "This section is locked: it takes no more answers."))
        assert.strictEqual(locked.headers.get("ratelimit"), `"portal";r=27;t=58`)
        assert.strictEqual(locked.headers.get("ratelimit-policy"), policy)
      }))

    it.effect("an error after the token is in the chosen language with Content-Language; before it, English without", () =>
      Effect.gen(function*() {
        const locked = yield* call(`${base}/sections/as-locked?lang=nl`, json("POST", { values: { arrival: "2027-08-20" } }))
        assert.strictEqual(locked.status, 409)
        assert.strictEqual(locked.text, envelope("SECTION_LOCKED", "Dit onderdeel is vergrendeld: het neemt geen antwoorden meer aan."))
        assert.deepStrictEqual([locked.headers.get("content-language"), locked.headers.get("vary")], ["nl", "Accept-Language"])
        const invalid = yield* call(travel, json("POST", { values: {} }, { "accept-language": "nl" }))
        assert.strictEqual(invalid.status, 422)
        assert.strictEqual(JSON.parse(invalid.text).error.message, "Een of meer waarden zijn ongeldig.")
        const unknown = yield* call("/p/artist/portal-unknown-0123456789/sections/as-travel?lang=nl")
        assert.strictEqual(unknown.status, 404)
        assert.strictEqual(unknown.text, envelope("PORTAL_NOT_FOUND", "No portal has this token."))
        assert.deepStrictEqual([unknown.headers.get("content-language"), unknown.headers.get("vary")], [null, "Accept-Language"])
      }))

    it.effect("the summary answers in the language chosen among the advance form's", () =>
      Effect.gen(function*() {
        const res = yield* call(base, { headers: { "accept-language": "de, nl;q=0.8" } })
        assert.strictEqual(res.status, 200)
        assert.deepStrictEqual([res.headers.get("content-language"), res.headers.get("vary")], ["nl", "Accept-Language"])
        const plain = yield* call(base)
        assert.deepStrictEqual([plain.headers.get("content-language"), plain.headers.get("vary")], ["en", "Accept-Language"])
      }))

    it.effect("PUT saves the body's values and answers the section (still pending); a locked section is 409", () =>
      Effect.gen(function*() {
        const saved = yield* call(travel, json("PUT", { values: { mode: "car" } }))
        assert.strictEqual(saved.status, 200)
        assert.strictEqual(saved.text, `{"data":{"section":{"id":"as-travel","name":"Travel","status":"pending","submitted_at":null},` +
          `"fields":${fieldsBytes},"values":{"mode":"car"}}}`)
        assert.strictEqual(saved.headers.get("ratelimit-policy"), policy)
        assert.deepStrictEqual(portalCalls.at(-1)?.values, { mode: "car" })
        const locked = yield* call(`${base}/sections/as-locked`, json("PUT", { values: {} }))
        assert.strictEqual(locked.status, 409)
        assert.strictEqual(locked.text, envelope("SECTION_LOCKED", "This section is locked: it takes no more answers."))
      }))

    it.effect("a wrong method is 405 with Allow", () =>
      Effect.gen(function*() {
        const patch = yield* call(travel, json("PATCH", {}))
        assert.strictEqual(patch.status, 405)
        assert.strictEqual(patch.headers.get("allow"), "GET, HEAD, POST, PUT")
        const post = yield* call(base, json("POST", {}))
        assert.strictEqual(post.status, 405)
        assert.strictEqual(post.headers.get("allow"), "GET, HEAD")
      }))
  })

  describe("logs and OpenAPI", () => {
    it.effect("request logs name the route template, never the token", () =>
      Effect.gen(function*() {
        yield* call(travel, { headers: { "x-request-id": "portal-log-1" } })
        yield* call(`/p/artist/${goneToken}`, { headers: { "x-request-id": "portal-log-2" } })
        const lines = logged.filter((l) => l.message === "request" || (Array.isArray(l.message) && l.message[0] === "request"))
        const mine = lines.filter((l) => String(l.annotations["request_id"]).startsWith("portal-log-"))
        assert.deepStrictEqual(mine.map((l) => [l.annotations["route"], l.annotations["status"]]), [
          ["/p/artist/:token/sections/:sectionId", 200],
          ["/p/artist/:token", 410]
        ])
        const text = JSON.stringify(logged)
        assert.notInclude(text, portalToken)
        assert.notInclude(text, goneToken)
      }))

    it.effect("/openapi.json lists the portal routes with their answers, and the configured public base URL as its server", () =>
      Effect.gen(function*() {
        const doc = JSON.parse((yield* call("/openapi.json")).text)
        assert.deepStrictEqual(doc.servers, [{ url: "https://forms.example.org" }])
        assert.deepStrictEqual(Object.keys(doc.paths["/p/artist/{token}"]), ["get"])
        assert.deepStrictEqual(Object.keys(doc.paths["/p/artist/{token}/sections/{sectionId}"]).sort(), ["get", "post", "put"])
        assert.deepStrictEqual(Object.keys(doc.paths["/p/artist/{token}"].get.responses).sort(), [
          "200", "404", "410", "429", "500", "503"
        ])
        for (const method of ["post", "put"]) {
          assert.deepStrictEqual(Object.keys(doc.paths["/p/artist/{token}/sections/{sectionId}"][method].responses).sort(), [
            "200", "400", "404", "409", "410", "413", "415", "422", "429", "500", "503"
          ])
        }
      }))
  })
})
