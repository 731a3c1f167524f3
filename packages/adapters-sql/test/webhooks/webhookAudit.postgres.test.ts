import { describe, it } from "@effect/vitest"
import { Layer } from "effect"
import { webhookAuditConformance } from "@forms/domain/testing"
import { Migrations } from "../../src/migrations/Migrations.js"
import { SqlOrganiserAccess } from "../../src/organiser/catalog/SqlOrganiserAccess.js"
import { SqlOrganiserCatalog } from "../../src/organiser/catalog/SqlOrganiserCatalog.js"
import { SqlWebhookStore } from "../../src/webhooks/SqlWebhookStore.js"
import { isolatedPg, skipReason, testDatabaseUrl } from "../support.js"

// The domain's webhook audit conformance suite, unchanged, on a real PostgreSQL.
if (testDatabaseUrl === undefined) {
  console.warn(skipReason)
  describe("SQL webhook store audit on PostgreSQL", () => it.skip(skipReason, () => {}))
} else {
  const url = testDatabaseUrl
  webhookAuditConformance(
    "SQL webhook store audit on PostgreSQL",
    () =>
      Layer.mergeAll(SqlOrganiserAccess.layer, SqlOrganiserCatalog.layer, SqlWebhookStore.layer).pipe(
        Layer.provide(Migrations.layer),
        Layer.provide(isolatedPg(url))
      ),
    { timeout: 120_000 }
  )
}
