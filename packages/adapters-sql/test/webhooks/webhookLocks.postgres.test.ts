/**
 * The webhook store's lock order on a real PostgreSQL (two sessions): an outcome that disables its endpoint (a 410)
 * locks the endpoint before the delivery, as a replay and an endpoint's delete do, so none of them can deadlock.
 */
import { describe, expect, it, layer } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import { Effect, Fiber, Layer, Option } from "effect"
import { OrganiserAccess, WebhookStore } from "@forms/domain"
import { Migrations } from "../../src/migrations/Migrations.js"
import { SqlOrganiserAccess } from "../../src/organiser/catalog/SqlOrganiserAccess.js"
import { SqlWebhookStore } from "../../src/webhooks/SqlWebhookStore.js"
import { isolatedPg, skipReason, testDatabaseUrl } from "../support.js"

if (testDatabaseUrl === undefined) {
  console.warn(skipReason)
  describe("webhook store locks on PostgreSQL", () => it.skip(skipReason, () => {}))
} else {
  const ports = Layer.mergeAll(SqlOrganiserAccess.layer, SqlWebhookStore.layer).pipe(
    Layer.provide(Migrations.layer),
    Layer.provideMerge(isolatedPg(testDatabaseUrl))
  )
  layer(ports, { timeout: "60 seconds", excludeTestServices: true })("webhook store locks on PostgreSQL", (it) => {
    it.effect("a 410 recorded while a replay holds its endpoint waits for the endpoint, never holding the delivery", () =>
      Effect.gen(function*() {
        const sql = yield* PgClient.PgClient
        const store = yield* WebhookStore
        const [{ schema }] = (yield* sql<{ readonly schema: string }>`SELECT current_schema() AS schema`) as [{ readonly schema: string }]
        const organisation = yield* (yield* OrganiserAccess).createOrganisation("Hooks")
        const actor = { organisation_id: organisation.id, api_key_id: null }
        const endpoint = yield* store.createEndpoint(actor, { url: "https://hooks.example.com/in", event_types: ["*"], description: null }, "whsec_AAAA", 0)
        yield* store.queueTest(actor, endpoint.id, crypto.randomUUID(), 0)
        const [claimed] = yield* store.claimDeliveries(1, { leaseMs: 60_000, maxAttempts: 3, endpointConcurrency: 4, organisationConcurrency: 8 }, Date.now())
        if (claimed === undefined) return expect.fail("the test delivery is due")

        // Another session holds the endpoint's row, as a replay (or the endpoint's delete) does before its deliveries.
        const other = yield* sql.reserve
        yield* other.executeRaw("BEGIN", [])
        yield* other.executeRaw(`SELECT 1 FROM ${schema}.webhook_endpoints WHERE id = $1 FOR UPDATE`, [endpoint.id])
        const recording = yield* Effect.forkChild(store.recordAttempt(claimed, {
          attempt: { at: Date.now(), status_code: 410, error: "HTTP 410", duration_ms: 1 },
          status: "failed",
          next_attempt_at: null,
          disable_reason: "the endpoint answered 410 Gone"
        }))
        yield* Effect.sleep("300 millis")
        // The replay goes on to the delivery: free, since the outcome waits for the endpoint first.
        yield* other.executeRaw("SET LOCAL lock_timeout = '2s'", [])
        yield* other.executeRaw(`SELECT 1 FROM ${schema}.webhook_deliveries WHERE id = $1 FOR UPDATE`, [claimed.id])
        yield* other.executeRaw("COMMIT", [])
        yield* Fiber.join(recording)

        const found = yield* store.findEndpoint(actor.organisation_id, endpoint.id)
        expect(Option.map(found, (e) => [e.enabled, e.disabled_reason])).toEqual(Option.some([false, "the endpoint answered 410 Gone"]))
      }))
  })
}
