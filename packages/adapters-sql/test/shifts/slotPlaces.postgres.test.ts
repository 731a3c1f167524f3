import { describe, it } from "@effect/vitest"
import { Layer } from "effect"
import { slotPlacesConformance } from "@forms/domain/testing"
import { Migrations } from "../../src/migrations/Migrations.js"
import { SqlOrganiserAccess } from "../../src/organiser/catalog/SqlOrganiserAccess.js"
import { SqlOrganiserCatalog } from "../../src/organiser/catalog/SqlOrganiserCatalog.js"
import { sqlSlotPlaceFixture } from "./slotPlaceFixture.js"
import { isolatedPg, skipReason, testDatabaseUrl } from "../support.js"

// The domain's held-slot conformance suite, unchanged, on a real PostgreSQL.
if (testDatabaseUrl === undefined) {
  console.warn(skipReason)
  describe("SQL organiser ports and slot places on PostgreSQL", () => it.skip(skipReason, () => {}))
} else {
  const url = testDatabaseUrl
  slotPlacesConformance(
    "SQL organiser ports and slot places on PostgreSQL",
    () =>
      Layer.mergeAll(SqlOrganiserAccess.layer, SqlOrganiserCatalog.layer, sqlSlotPlaceFixture).pipe(
        Layer.provide(Migrations.layer),
        Layer.provide(isolatedPg(url))
      ),
    { timeout: 120_000 }
  )
}
