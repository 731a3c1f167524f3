import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { OrganiserForms } from "@forms/domain"
import { generateToken } from "../src/commands.js"
import { backends, reportSkippedPostgres } from "./backends.js"
import { call, dataOf, envelope, liveOptions, type RawResponse, testServer } from "./harness.js"

const open = "/public/forms/test-open-token-0001"
const key = (n: number) => `limits-${String(n).padStart(4, "0")}-0123456789abcdef`
const createDraft = (n: number) =>
  Effect.map(call(`${open}/submissions`, { method: "POST", body: { idempotency_key: key(n) } }), (r) => String(dataOf(r)["id"]))
const submit = (id: string, ip: string) =>
  call(`${open}/submissions/${id}/submit`, { method: "POST", headers: { "x-forwarded-for": ip } })

for (const backend of backends) {
  // TRUST_PROXY_HOPS=1: each test is its own client through X-Forwarded-For, with its own budget.
  const env = { SUBMIT_RATE_LIMIT_PER_HOUR: "3", TRUST_PROXY_HOPS: "1", FORM_TOKEN_GRACE_SECONDS: "3600" }
  layer(testServer(backend, env), liveOptions)(`limits (${backend})`, (it) => {
    it.effect("submit is limited per client IP and form; passes and the 429 carry the RateLimit fields", () =>
      Effect.gen(function*() {
        const id = yield* createDraft(1)
        const answers: Array<RawResponse> = []
        for (let i = 0; i < 4; i++) answers.push(yield* submit(id, "203.0.113.7"))
        assert.deepStrictEqual(answers.map((r) => r.status), [422, 422, 422, 429])
        assert.deepStrictEqual(answers.map((r) => r.headers.get("ratelimit-policy")), Array(4).fill(`"submit";q=3;w=3600`))
        assert.match(answers[0]?.headers.get("ratelimit") ?? "", /^"submit";r=2;t=(3599|3600)$/)
        assert.match(answers[2]?.headers.get("ratelimit") ?? "", /^"submit";r=0;t=(3599|3600)$/)
        const limited = answers[3]
        assert.strictEqual(limited?.text, envelope("RATE_LIMITED", "Too many requests. Try again later."))
        const retryAfter = Number(limited?.headers.get("retry-after"))
        assert.isTrue(retryAfter >= 3598 && retryAfter <= 3600, String(retryAfter))
        assert.match(limited?.headers.get("ratelimit") ?? "", /^"submit";r=0;t=\d+$/)
        // another client still passes; a 404 is answered before the limit and carries no fields
        assert.strictEqual((yield* submit(id, "203.0.113.8")).status, 422)
        const unknown = yield* submit("00000000-0000-4000-8000-000000000000", "203.0.113.7")
        assert.strictEqual(unknown.status, 404)
        assert.isNull(unknown.headers.get("ratelimit"))
      }))

    it.effect("a rotated token: the new one works, the old one within the grace window", () =>
      Effect.gen(function*() {
        const token = generateToken()
        assert.match(token, /^[A-Za-z0-9_-]{43}$/)
        // The audited rotation of the API and the CLI (the port's: FormAuthoring.rotateToken only adds the time).
        yield* Effect.flatMap(OrganiserForms, (forms) => forms.rotateFormToken(undefined, "fs-registration", token, Date.now()))
        assert.strictEqual((yield* call(`/public/forms/${token}`)).status, 200)
        assert.strictEqual((yield* call("/public/forms/test-registration-0001")).status, 200)
      }))
  })
}

reportSkippedPostgres("limits")
