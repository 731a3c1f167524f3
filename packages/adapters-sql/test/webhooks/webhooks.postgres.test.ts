import { describe, it } from "@effect/vitest"
import { Layer } from "effect"
import { webhookStoreConformance } from "@forms/domain/testing"
import { Migrations } from "../../src/migrations/Migrations.js"
import { SqlOrganiserAccess } from "../../src/organiser/catalog/SqlOrganiserAccess.js"
import { SqlWebhookStore } from "../../src/webhooks/SqlWebhookStore.js"
import { isolatedPg, skipReason, testDatabaseUrl } from "../support.js"

// The domain's webhook store conformance suite, unchanged, on a real PostgreSQL with a pool of connections.
if (testDatabaseUrl === undefined) {
  console.warn(skipReason)
  describe("SQL webhook store on PostgreSQL", () => it.skip(skipReason, () => {}))
} else {
  const url = testDatabaseUrl
  webhookStoreConformance(
    "SQL webhook store on PostgreSQL",
    () =>
      Layer.mergeAll(SqlOrganiserAccess.layer, SqlWebhookStore.layer).pipe(
        Layer.provide(Migrations.layer),
        Layer.provide(isolatedPg(url))
      ),
    { timeout: 120_000 }
  )
}
