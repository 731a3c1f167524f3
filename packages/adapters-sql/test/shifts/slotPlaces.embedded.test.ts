import { Layer } from "effect"
import { slotPlacesConformance } from "@forms/domain/testing"
import { EmbeddedPg } from "../../src/connection/EmbeddedPg.js"
import { Migrations } from "../../src/migrations/Migrations.js"
import { SqlOrganiserAccess } from "../../src/organiser/catalog/SqlOrganiserAccess.js"
import { SqlOrganiserCatalog } from "../../src/organiser/catalog/SqlOrganiserCatalog.js"
import { sqlSlotPlaceFixture } from "./slotPlaceFixture.js"

// The domain's held-slot conformance suite, unchanged, on PGlite: the places' foreign key refuses the delete.
slotPlacesConformance(
  "SQL organiser ports and slot places on embedded PostgreSQL (PGlite)",
  () =>
    Layer.mergeAll(SqlOrganiserAccess.layer, SqlOrganiserCatalog.layer, sqlSlotPlaceFixture).pipe(
      Layer.provide(Migrations.layer),
      Layer.provide(EmbeddedPg.layer())
    ),
  { timeout: 120_000 }
)
