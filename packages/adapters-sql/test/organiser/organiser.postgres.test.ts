import { describe, it } from "@effect/vitest"
import { Layer } from "effect"
import { organiserConformance } from "@forms/domain/testing"
import { Migrations } from "../../src/migrations/Migrations.js"
import { SqlOrganiserAccess } from "../../src/organiser/catalog/SqlOrganiserAccess.js"
import { SqlOrganiserArtists } from "../../src/organiser/artists/SqlOrganiserArtists.js"
import { SqlOrganiserCatalog } from "../../src/organiser/catalog/SqlOrganiserCatalog.js"
import { isolatedPg, skipReason, testDatabaseUrl } from "../support.js"

// The domain's organiser conformance suite, unchanged, on a real PostgreSQL with a pool of connections.
if (testDatabaseUrl === undefined) {
  console.warn(skipReason)
  describe("SQL organiser ports on PostgreSQL", () => it.skip(skipReason, () => {}))
} else {
  const url = testDatabaseUrl
  organiserConformance(
    "SQL organiser ports on PostgreSQL",
    () =>
      Layer.mergeAll(SqlOrganiserAccess.layer, SqlOrganiserCatalog.layer, SqlOrganiserArtists.layer).pipe(
        Layer.provide(Migrations.layer),
        Layer.provide(isolatedPg(url))
      ),
    { timeout: 120_000 }
  )
}
