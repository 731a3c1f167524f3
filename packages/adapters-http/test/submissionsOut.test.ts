import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { FetchHttpClient, HttpClient, HttpClientRequest } from "effect/http"
import { OrganiserAccess, OrganiserLive, SubmissionsOutLive } from "@forms/domain"
import { InMemory, InMemoryOrganiser, InMemorySubmissionsOut } from "@forms/domain/memory"
import { AdminConfig, ApiConflict, ApiNotFound, makeApiClient } from "../src/index.js"
import { FakePublicForms } from "./FakePublicForms.js"
import { baseUrl, call, envelope, serverLayer } from "./harness.js"

const key = `fok_${"Sb4".repeat(14)}x`

// One organisation with `key`, the in-memory ports, and an admin limit of 3 a minute.
const SeedKey = Layer.effectDiscard(Effect.gen(function*() {
  const access = yield* OrganiserAccess
  const organisation = yield* access.createOrganisation("Org")
  yield* access.createApiKey({ organisation_id: organisation.id, name: null, key, created_at: 0 })
}).pipe(Effect.orDie))
const adminWith = (limitPerMinute: number) =>
  Layer.mergeAll(OrganiserLive.layer, SeedKey, SubmissionsOutLive.layer.pipe(Layer.provide(InMemorySubmissionsOut.layer))).pipe(
    Layer.provideMerge(InMemoryOrganiser.layer),
    Layer.provideMerge(InMemory.layer()),
    Layer.merge(AdminConfig.layer({ limitPerMinute }))
  )
const admin = adminWith(3)

const auth = { authorization: `Bearer ${key}` }

layer(serverLayer(FakePublicForms, { admin }))("submissions out routes: query before the admin limit", (it) => {
  it.effect("a malformed query is 400 naming the parameter and not counted; the 4th counted request is 429", () =>
    Effect.gen(function*() {
      for (let i = 0; i < 5; i++) {
        const bad = yield* call("/admin/forms/f/submissions?limit=999", { headers: auth })
        assert.strictEqual(bad.status, 400)
        assert.strictEqual(bad.text, envelope("INVALID_QUERY", "The query parameter \"limit\" is malformed."))
      }
      // A NUL in `email` once reached PostgreSQL (500): it is a malformed parameter, not counted either.
      const nul = yield* call("/admin/contacts?email=a%00b%40example.org", { headers: auth })
      assert.strictEqual(nul.status, 400)
      assert.strictEqual(nul.text, envelope("INVALID_QUERY", "The query parameter \"email\" is malformed."))
      const counted = ["/admin/forms/f/submissions", "/admin/contacts", "/admin/outbox?state=pending"]
      const answers = []
      for (const path of counted) answers.push(yield* call(path, { headers: auth }))
      assert.deepStrictEqual(answers.map((a) => a.status), [404, 200, 200])
      assert.strictEqual(answers[0]!.text, envelope("FORM_NOT_FOUND", "No published form has this token."))
      assert.strictEqual(answers[2]!.headers.get("ratelimit"), "\"admin\";r=0;t=60")
      const limited = yield* call("/admin/submissions/x", { method: "DELETE", headers: auth })
      assert.strictEqual(limited.status, 429)
      assert.strictEqual(limited.text, envelope("RATE_LIMITED", "Too many requests. Try again later."))
      assert.isNotNull(limited.headers.get("retry-after"))
    }))
})

layer(Layer.merge(serverLayer(FakePublicForms, { admin: adminWith(600) }), FetchHttpClient.layer))("submissions out: typed client", (it) => {
  it.effect("the group is in the typed client: lists decode, errors come back as the envelope classes", () =>
    Effect.gen(function*() {
      const url = yield* baseUrl
      const api = yield* makeApiClient(url).pipe(
        Effect.provide(Layer.effect(HttpClient.HttpClient, Effect.map(HttpClient.HttpClient, HttpClient.mapRequest(HttpClientRequest.bearerToken(key)))).pipe(Layer.provide(FetchHttpClient.layer)))
      )
      const contacts = yield* api.submissionsOut.listContacts({})
      assert.deepStrictEqual(contacts, { data: [], next_cursor: null })
      const outbox = yield* api.submissionsOut.listOutbox({})
      assert.deepStrictEqual(outbox.data, [])
      const missing = yield* api.submissionsOut.getSubmission({ params: { submissionId: "nope" } }).pipe(Effect.flip)
      assert.instanceOf(missing, ApiNotFound)
      if (missing instanceof ApiNotFound) assert.strictEqual(missing.error.code, "SUBMISSION_NOT_FOUND")
      const retry = yield* api.submissionsOut.retryOutboxEvent({ params: { eventId: "nope" } }).pipe(Effect.flip)
      assert.instanceOf(retry, ApiNotFound)
      assert.isFalse(retry instanceof ApiConflict)
    }))
})
