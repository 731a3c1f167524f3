import { assert, layer } from "@effect/vitest"
import { Effect, Layer, Logger } from "effect"
import { OrganiserAccess, OrganiserLive, SubmissionsOutLive } from "@forms/domain"
import { InMemory, InMemoryOrganiser, InMemorySubmissionsOut } from "@forms/domain/memory"
import { AdminConfig } from "../src/index.js"
import { FakePublicForms } from "./FakePublicForms.js"
import { call, envelope, serverLayer } from "./harness.js"

const key = `fok_${"Kq3".repeat(14)}x`
const unknownKey = `fok_${"Zz9".repeat(14)}x`

const logged: Array<string> = []
const CaptureLogs = Logger.layer([Logger.map(Logger.formatStructured, (entry) => void logged.push(JSON.stringify(entry)))])

// One organisation with `key`, the in-memory ports, and an admin limit of 3 a minute.
const SeedKey = Layer.effectDiscard(Effect.gen(function*() {
  const access = yield* OrganiserAccess
  const organisation = yield* access.createOrganisation("Org")
  yield* access.createApiKey({ organisation_id: organisation.id, name: null, key, created_at: 0 })
}).pipe(Effect.orDie))
const admin = Layer.mergeAll(OrganiserLive.layer, SeedKey, SubmissionsOutLive.layer.pipe(Layer.provide(InMemorySubmissionsOut.layer))).pipe(
  Layer.provideMerge(InMemoryOrganiser.layer),
  Layer.provideMerge(InMemory.layer()),
  Layer.merge(AdminConfig.layer({ limitPerMinute: 3 }))
)

const server = serverLayer(FakePublicForms, { admin, config: { maxBodyBytes: 256 } }).pipe(Layer.provide(CaptureLogs))

const auth = (k: string) => ({ authorization: `Bearer ${k}` })

layer(server)("organiser routes: order of checks and the admin limit", (it) => {
  it.effect("key → media type, size, JSON → query → admin limit → path ids, with the admin RateLimit headers", () =>
    Effect.gen(function*() {
      // A bad key is refused before the body is looked at.
      const noKey = yield* call("/admin/events", { method: "POST", body: "x", headers: { "content-type": "text/plain" } })
      assert.strictEqual(noKey.status, 401)
      assert.strictEqual(noKey.headers.get("www-authenticate"), "Bearer")
      assert.isNull(noKey.headers.get("ratelimit"))
      // Request-shape errors come before the limit and do not count.
      const media = yield* call("/admin/events", { method: "POST", body: "x", headers: { ...auth(key), "content-type": "text/plain" } })
      assert.strictEqual(media.status, 415)
      assert.isNull(media.headers.get("ratelimit"))
      const big = yield* call("/admin/events", { method: "POST", body: JSON.stringify({ name: "x".repeat(300) }), headers: { ...auth(key), "content-type": "application/json" } })
      assert.strictEqual(big.status, 413)
      const broken = yield* call("/admin/events", { method: "POST", body: "{", headers: { ...auth(key), "content-type": "application/json" } })
      assert.strictEqual(broken.status, 400)
      assert.strictEqual(broken.text, envelope("MALFORMED_JSON", "The request body must be a JSON object."))
      const query = yield* call("/admin/events?limit=0", { headers: auth(key) })
      assert.strictEqual(query.status, 400)
      assert.isNull(query.headers.get("ratelimit"))
      // Three pass (a 404 counts too), the fourth is refused before the path id is looked up.
      const first = yield* call("/admin/events", { headers: auth(key) })
      assert.strictEqual(first.status, 200)
      assert.strictEqual(first.headers.get("ratelimit-policy"), "\"admin\";q=3;w=60")
      assert.strictEqual(first.headers.get("ratelimit"), "\"admin\";r=2;t=60")
      const missing = yield* call("/admin/events/nope", { headers: auth(key) })
      assert.strictEqual(missing.status, 404)
      assert.strictEqual(missing.headers.get("ratelimit"), "\"admin\";r=1;t=60")
      const invalid = yield* call("/admin/events", { method: "POST", body: "{}", headers: { ...auth(key), "content-type": "application/json" } })
      assert.strictEqual(invalid.status, 422)
      assert.strictEqual(invalid.headers.get("ratelimit"), "\"admin\";r=0;t=60")
      const limited = yield* call("/admin/events/nope", { headers: auth(key) })
      assert.strictEqual(limited.status, 429)
      assert.strictEqual(limited.text, envelope("RATE_LIMITED", "Too many requests. Try again later."))
      assert.strictEqual(limited.headers.get("retry-after"), "60")
      assert.strictEqual(limited.headers.get("ratelimit"), "\"admin\";r=0;t=60")
      // Still: key first, query before the limit.
      assert.strictEqual((yield* call("/admin/events", { headers: auth(unknownKey) })).status, 401)
      assert.strictEqual((yield* call("/admin/events?cursor=bad!", { headers: auth(key) })).status, 400)
    }))

  it.effect("keys never appear in the logs", () =>
    Effect.sync(() => {
      assert.isAbove(logged.length, 5)
      const all = logged.join("\n")
      for (const k of [key, unknownKey]) {
        assert.notInclude(all, k)
        assert.notInclude(all, k.slice(4, 20))
      }
      assert.include(all, "/admin/events/:eventId")
    }))
})
