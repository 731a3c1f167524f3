import { Layer } from "effect"
import { webhookStoreConformance } from "@forms/domain/testing"
import { EmbeddedPg } from "../../src/connection/EmbeddedPg.js"
import { Migrations } from "../../src/migrations/Migrations.js"
import { SqlOrganiserAccess } from "../../src/organiser/catalog/SqlOrganiserAccess.js"
import { SqlWebhookStore } from "../../src/webhooks/SqlWebhookStore.js"

// The domain's webhook store conformance suite, unchanged, on PGlite.
webhookStoreConformance(
  "SQL webhook store on embedded PostgreSQL (PGlite)",
  () =>
    Layer.mergeAll(SqlOrganiserAccess.layer, SqlWebhookStore.layer).pipe(
      Layer.provide(Migrations.layer),
      Layer.provide(EmbeddedPg.layer())
    ),
  { timeout: 120_000 }
)
