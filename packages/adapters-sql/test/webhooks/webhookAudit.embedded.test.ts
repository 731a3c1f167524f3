import { Layer } from "effect"
import { webhookAuditConformance } from "@forms/domain/testing"
import { EmbeddedPg } from "../../src/connection/EmbeddedPg.js"
import { Migrations } from "../../src/migrations/Migrations.js"
import { SqlOrganiserAccess } from "../../src/organiser/catalog/SqlOrganiserAccess.js"
import { SqlOrganiserCatalog } from "../../src/organiser/catalog/SqlOrganiserCatalog.js"
import { SqlWebhookStore } from "../../src/webhooks/SqlWebhookStore.js"

// The domain's webhook audit conformance suite, unchanged, on PGlite.
webhookAuditConformance(
  "SQL webhook store audit on embedded PostgreSQL (PGlite)",
  () =>
    Layer.mergeAll(SqlOrganiserAccess.layer, SqlOrganiserCatalog.layer, SqlWebhookStore.layer).pipe(
      Layer.provide(Migrations.layer),
      Layer.provide(EmbeddedPg.layer())
    ),
  { timeout: 120_000 }
)
