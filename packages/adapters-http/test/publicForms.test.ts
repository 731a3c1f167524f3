import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { call, envelope, json, serverLayer } from "./harness.js"
import { parseExemptNetworks } from "../src/index.js"
import { calls, closedToken, downToken, FakePublicForms, openToken } from "./FakePublicForms.js"

const base = `/public/forms/${openToken}`
const key = "0192f1c4-aaaa-bbbb-cccc-000000000001"
const notFound = envelope("FORM_NOT_FOUND", "No published form has this token.")
const invalidValues = envelope("VALIDATION_FAILED", "One or more values are invalid.", {
  email: [{ rule: "email", message: "Must be a valid email address." }]
})

layer(serverLayer(FakePublicForms, {
  config: { maxBodyBytes: 1024, sizeLimits: { maxValuesKeys: 3, maxStringLength: 20, maxArrayItems: 3 } }
}))("public form routes", (it) => {
  describe("GET form", () => {
    it.effect("answers the form in its envelope: sections by position then id, fields by position then slug", () =>
      Effect.gen(function*() {
        const res = yield* call(base)
        assert.strictEqual(res.status, 200)
        assert.match(res.headers.get("content-type") ?? "", /^application\/json/)
        const form = JSON.parse(res.text).data
        assert.deepStrictEqual(form.sections.map((s: { id: string }) => s.id), ["s-a1", "s-a2", "s-b"])
        assert.deepStrictEqual(form.sections[0].fields.map((f: { slug: string }) => f.slug), ["email", "shirt"])
        assert.deepStrictEqual(form.fields.map((f: { slug: string }) => f.slug), ["code", "note"])
        assert.deepStrictEqual(form.sections[0].fields[1].options, [{ value: "M", label: "Medium" }])
        assert.strictEqual(form.closes_at, "2027-07-01T00:00:00.000Z")
        assert.strictEqual(form.opens_at, null)
        assert.deepStrictEqual(form.event, { id: "ev-fest", name: "Festival 2027" })
        assert.notInclude(res.text, "maps_to")
        assert.notInclude(res.text, "tags")
      }))

    it.effect("an unknown token is 404 FORM_NOT_FOUND with the exact envelope", () =>
      Effect.gen(function*() {
        const res = yield* call("/public/forms/nope")
        assert.strictEqual(res.status, 404)
        assert.strictEqual(res.text, notFound)
      }))

    it.effect("a token of any length is looked up: 1,000 characters is 404 FORM_NOT_FOUND, not NOT_FOUND", () =>
      Effect.gen(function*() {
        const res = yield* call(`/public/forms/${"x".repeat(1000)}`)
        assert.strictEqual(res.status, 404)
        assert.strictEqual(res.text, notFound)
      }))

    it.effect("an unreachable database is 503 UNAVAILABLE", () =>
      Effect.gen(function*() {
        const res = yield* call(`/public/forms/${downToken}`)
        assert.strictEqual(res.status, 503)
        assert.strictEqual(
          res.text,
          envelope("UNAVAILABLE", "The service is temporarily unavailable. Nothing was written.")
        )
      }))
  })

  describe("POST submissions", () => {
    it.effect("a new key is 201 with the submission and ISO timestamps", () =>
      Effect.gen(function*() {
        const res = yield* call(`${base}/submissions`, json("POST", { idempotency_key: key, values: { a: 1 } }))
        assert.strictEqual(res.status, 201)
        assert.deepStrictEqual(JSON.parse(res.text), {
          data: {
            id: "sub-new",
            status: "draft",
            idempotency_key: "key-0123456789abcdef",
            auto_save_count: 0,
            event_id: "ev-fest",
            values: { a: 1 },
            created_at: "2026-11-22T10:00:00.000Z",
            updated_at: "2026-11-22T10:04:00.000Z",
            submitted_at: null,
            language: "en"
          }
        })
      }))

    it.effect("a known key is 200", () =>
      Effect.gen(function*() {
        const res = yield* call(`${base}/submissions`, json("POST", { idempotency_key: "existing-0123456789" }))
        assert.strictEqual(res.status, 200)
        assert.strictEqual(JSON.parse(res.text).data.id, "sub-1")
      }))

    it.effect("a missing key is 422 required, a short one invalid, values not an object invalid", () =>
      Effect.gen(function*() {
        const missing = yield* call(`${base}/submissions`, json("POST", {}))
        assert.strictEqual(missing.status, 422)
        assert.strictEqual(
          missing.text,
          envelope("VALIDATION_FAILED", "One or more values are invalid.", {
            idempotency_key: [{ rule: "required", message: "This field is required." }]
          })
        )
        const bad = yield* call(`${base}/submissions`, json("POST", { idempotency_key: "short key", values: [1] }))
        assert.strictEqual(
          bad.text,
          envelope("VALIDATION_FAILED", "One or more values are invalid.", {
            idempotency_key: [{
              rule: "invalid",
              message: "Must be 16 to 255 printable ASCII characters without spaces."
            }],
            values: [{ rule: "invalid", message: "Must be an object mapping field slugs to values." }]
          })
        )
        const noBody = yield* call(`${base}/submissions`, { method: "POST" })
        assert.strictEqual(noBody.status, 422)
      }))

    it.effect("the request shape is answered before the token: 422 on an unknown token", () =>
      Effect.gen(function*() {
        const res = yield* call("/public/forms/nope/submissions", json("POST", { idempotency_key: 5 }))
        assert.strictEqual(res.status, 422)
      }))

    it.effect("an oversized string or array, or too many keys, is max_length under the slug or `values`", () =>
      Effect.gen(function*() {
        const tooLong = { rule: "max_length", message: "Must be at most 20 characters." }
        const res = yield* call(
          "/public/forms/nope/submissions",
          json("POST", { idempotency_key: key, values: { a: "x".repeat(21), b: [1, 2, 3, 4], c: ["y".repeat(21)] } })
        )
        assert.strictEqual(res.status, 422)
        assert.strictEqual(
          res.text,
          envelope("VALIDATION_FAILED", "One or more values are invalid.", {
            a: [tooLong],
            b: [{ rule: "max_length", message: "Must have at most 3 items." }],
            c: [tooLong]
          })
        )
        const proto = yield* call(`${base}/submissions/sub-1`, {
          method: "PUT",
          body: `{"values":{"__proto__":"${"x".repeat(21)}"}}`,
          headers: { "content-type": "application/json" }
        })
        assert.strictEqual(proto.text, envelope("VALIDATION_FAILED", "One or more values are invalid.", JSON.parse(`{"__proto__":[${JSON.stringify(tooLong)}]}`)))
        assert.include(proto.text, `"fields":{"__proto__":[`)
        const keys = yield* call(`${base}/submissions/sub-1`, json("PUT", { values: { a: 1, b: 2, c: 3, d: 4 } }))
        assert.strictEqual(
          keys.text,
          envelope("VALIDATION_FAILED", "One or more values are invalid.", {
            values: [{ rule: "max_length", message: "Must have at most 3 keys." }]
          })
        )
      }))

    it.effect("a closed form is 409 FORM_CLOSED, invalid values 422 with fields", () =>
      Effect.gen(function*() {
        const closed = yield* call(`/public/forms/${closedToken}/submissions`, json("POST", { idempotency_key: key }))
        assert.strictEqual(closed.status, 409)
        assert.strictEqual(closed.text, envelope("FORM_CLOSED", "This form does not accept submissions."))
        const invalid = yield* call(`${base}/submissions`, json("POST", { idempotency_key: key, values: { email: "x" } }))
        assert.strictEqual(invalid.status, 422)
        assert.strictEqual(invalid.text, invalidValues)
      }))

    it.effect("unknown slugs such as __proto__ reach the use case as own keys of a null-prototype map", () =>
      Effect.gen(function*() {
        yield* call(`${base}/submissions`, {
          method: "POST",
          body: `{"idempotency_key":"${key}","values":{"__proto__":{"x":1},"a":2}}`,
          headers: { "content-type": "application/json" }
        })
        const last = calls.create[calls.create.length - 1]
        assert.isDefined(last?.values)
        assert.strictEqual(Object.getPrototypeOf(last?.values), null)
        assert.deepStrictEqual(Object.keys(last?.values ?? {}), ["__proto__", "a"])
      }))
  })

  describe("PUT and submit", () => {
    it.effect("save answers the saved draft; errors map to 404, 409, 500", () =>
      Effect.gen(function*() {
        const ok = yield* call(`${base}/submissions/sub-1`, json("PUT", { values: { a: "b" } }))
        assert.strictEqual(ok.status, 200)
        assert.deepStrictEqual(JSON.parse(ok.text).data.values, { a: "b" })
        const missing = yield* call(`${base}/submissions/other`, json("PUT", {}))
        assert.strictEqual(missing.status, 404)
        assert.strictEqual(
          missing.text,
          envelope("SUBMISSION_NOT_FOUND", "This form has no submission with this id.")
        )
        const done = yield* call(`${base}/submissions/sub-submitted`, json("PUT", {}))
        assert.strictEqual(done.status, 409)
        assert.strictEqual(
          done.text,
          envelope("SUBMISSION_ALREADY_SUBMITTED", "This submission has already been submitted.")
        )
        const boom = yield* call(`${base}/submissions/sub-boom`, json("PUT", {}))
        assert.strictEqual(boom.status, 500)
        assert.strictEqual(boom.text, envelope("INTERNAL", "An unexpected error occurred."))
      }))

    it.effect("an answer writes the values as they are stored, in their order, a `__proto__` slug as a member", () =>
      Effect.gen(function*() {
        const ok = yield* call(`${base}/submissions/sub-1`, {
          method: "PUT",
          body: `{"values":{"z":[1,"two",null],"__proto__":{"x":true},"a":"b"}}`,
          headers: { "content-type": "application/json" }
        })
        assert.strictEqual(ok.status, 200)
        assert.include(ok.text, `"values":{"z":[1,"two",null],"__proto__":{"x":true},"a":"b"},"created_at"`)
      }))

    it.effect("submit with no body at all is allowed and passes the client IP; RateLimit headers on a pass", () =>
      Effect.gen(function*() {
        const res = yield* call(`${base}/submissions/sub-1/submit`, { method: "POST" })
        assert.strictEqual(res.status, 200)
        assert.strictEqual(JSON.parse(res.text).data.status, "submitted")
        assert.strictEqual(res.headers.get("ratelimit-policy"), `"submit";q=10;w=3600`)
        assert.strictEqual(res.headers.get("ratelimit"), `"submit";r=9;t=3600`)
        assert.isNull(res.headers.get("retry-after"))
        assert.strictEqual(calls.submit[calls.submit.length - 1]?.client.address, "127.0.0.1")
      }))

    it.effect("429 carries Retry-After and r=0; later errors carry the limiter state too", () =>
      Effect.gen(function*() {
        const limited = yield* call(`${base}/submissions/sub-limited/submit`, json("POST", {}))
        assert.strictEqual(limited.status, 429)
        assert.strictEqual(limited.text, envelope("RATE_LIMITED", "Too many requests. Try again later."))
        assert.strictEqual(limited.headers.get("retry-after"), "1234")
        assert.strictEqual(limited.headers.get("ratelimit"), `"submit";r=0;t=1234`)
        const done = yield* call(`${base}/submissions/sub-submitted/submit`, json("POST", {}))
        assert.strictEqual(done.status, 409)
        assert.strictEqual(done.headers.get("ratelimit"), `"submit";r=7;t=3599`)
        const invalid = yield* call(`${base}/submissions/sub-invalid/submit`, json("POST", {}))
        assert.strictEqual(invalid.status, 422)
        assert.strictEqual(invalid.text, invalidValues)
        assert.strictEqual(invalid.headers.get("ratelimit"), `"submit";r=6;t=3598`)
        const unknown = yield* call(`${base}/submissions/nope/submit`, json("POST", {}))
        assert.strictEqual(unknown.status, 404)
        assert.isNull(unknown.headers.get("ratelimit"))
      }))
  })

  describe("the write limit's headers (CONTRACT §8)", () => {
    const write = `"write";q=600;w=3600`
    it.effect("create and save answers from the limit step on carry RateLimit-Policy and RateLimit, never Retry-After", () =>
      Effect.gen(function*() {
        const created = yield* call(`${base}/submissions`, json("POST", { idempotency_key: key }))
        const replay = yield* call(`${base}/submissions`, json("POST", { idempotency_key: `existing-${key}` }))
        const invalid = yield* call(`${base}/submissions`, json("POST", { idempotency_key: key, values: { email: "x" } }))
        const saved = yield* call(`${base}/submissions/sub-1`, json("PUT", { values: {} }))
        const done = yield* call(`${base}/submissions/sub-submitted`, json("PUT", { values: {} }))
        const closed = yield* call(`/public/forms/${closedToken}/submissions/sub-1`, json("PUT", { values: {} }))
        for (const [res, status] of [[created, 201], [replay, 200], [invalid, 422], [saved, 200], [done, 409], [closed, 409]] as const) {
          assert.strictEqual(res.status, status)
          assert.strictEqual(res.headers.get("ratelimit-policy"), write)
          assert.strictEqual(res.headers.get("ratelimit"), `"write";r=599;t=3600`)
          assert.isNull(res.headers.get("retry-after"))
        }
      }))

    it.effect("answers before the limit step (404, request shape) carry none", () =>
      Effect.gen(function*() {
        const unknownForm = yield* call("/public/forms/nope/submissions", json("POST", { idempotency_key: key }))
        const unknownDraft = yield* call(`${base}/submissions/nope`, json("PUT", { values: {} }))
        const shape = yield* call(`${base}/submissions`, json("POST", {}))
        for (const res of [unknownForm, unknownDraft, shape]) {
          assert.include([404, 422], res.status)
          assert.isNull(res.headers.get("ratelimit"))
          assert.isNull(res.headers.get("ratelimit-policy"))
        }
      }))
  })

  describe("registration data", () => {
    it.effect("time slots and sections in their envelopes; non-volunteer slots 404", () =>
      Effect.gen(function*() {
        const slots = yield* call(`${base}/time-slots`)
        assert.strictEqual(slots.status, 200)
        assert.strictEqual(JSON.parse(slots.text).data[0].duration_hours, 4)
        assert.strictEqual(JSON.parse(slots.text).data[0].starts_at, "2027-08-20T20:00:00.000Z")
        assert.strictEqual(JSON.parse(slots.text).data[0].ends_at, "2027-08-21T00:00:00.000Z")
        const sections = yield* call(`${base}/sections`)
        assert.strictEqual(
          sections.text,
          JSON.stringify({ data: [{ id: "es-1", name: "Bar", type: "standard", position: 1 }] })
        )
        const none = yield* call(`/public/forms/${closedToken}/time-slots`)
        assert.strictEqual(none.status, 404)
        assert.strictEqual(
          none.text,
          envelope("TIME_SLOTS_NOT_AVAILABLE", "Time slots are only available for volunteer forms.")
        )
      }))
  })
})

layer(serverLayer(FakePublicForms, { config: { exemptNetworks: parseExemptNetworks("127.0.0.0/8, ::1").networks } }))(
  "a client of an exempt network",
  (it) => {
    it.effect("is passed to the use case as exempt, and its answers carry no RateLimit headers", () =>
      Effect.gen(function*() {
        const created = yield* call(`${base}/submissions`, json("POST", { idempotency_key: key }))
        const submitted = yield* call(`${base}/submissions/sub-1/submit`, json("POST", {}))
        assert.deepStrictEqual([created.status, submitted.status], [201, 200])
        assert.strictEqual(calls.submit.at(-1)?.client.exempt, true)
        assert.isNull(created.headers.get("ratelimit"))
        assert.isNull(created.headers.get("ratelimit-policy"))
      }))
  }
)
