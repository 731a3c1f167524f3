import { describe, it } from "@effect/vitest"
import { Layer } from "effect"
import { formsConformance } from "@forms/domain/testing"
import { Migrations } from "../../../src/migrations/Migrations.js"
import { SqlOrganiserAccess } from "../../../src/organiser/catalog/SqlOrganiserAccess.js"
import { SqlOrganiserArtists } from "../../../src/organiser/artists/SqlOrganiserArtists.js"
import { SqlOrganiserCatalog } from "../../../src/organiser/catalog/SqlOrganiserCatalog.js"
import { SqlOrganiserForms } from "../../../src/organiser/forms/SqlOrganiserForms.js"
import { isolatedPg, skipReason, testDatabaseUrl } from "../../support.js"

// The domain's OrganiserForms conformance suite, unchanged, on a real PostgreSQL with a pool of connections
// (the two concurrent replaces of one revision really run at once there).
if (testDatabaseUrl === undefined) {
  console.warn(skipReason)
  describe("SQL OrganiserForms on PostgreSQL", () => it.skip(skipReason, () => {}))
} else {
  const url = testDatabaseUrl
  formsConformance(
    "SQL OrganiserForms on PostgreSQL",
    () =>
      Layer.mergeAll(SqlOrganiserAccess.layer, SqlOrganiserCatalog.layer, SqlOrganiserArtists.layer, SqlOrganiserForms.layer).pipe(
        Layer.provide(Migrations.layer),
        Layer.provide(isolatedPg(url))
      ),
    { timeout: 120_000 }
  )
}
