import { Layer } from "effect"
import { organiserConformance } from "@forms/domain/testing"
import { EmbeddedPg } from "../../src/connection/EmbeddedPg.js"
import { Migrations } from "../../src/migrations/Migrations.js"
import { SqlOrganiserAccess } from "../../src/organiser/catalog/SqlOrganiserAccess.js"
import { SqlOrganiserArtists } from "../../src/organiser/artists/SqlOrganiserArtists.js"
import { SqlOrganiserCatalog } from "../../src/organiser/catalog/SqlOrganiserCatalog.js"

// The domain's organiser conformance suite, unchanged, on PGlite.
organiserConformance(
  "SQL organiser ports on embedded PostgreSQL (PGlite)",
  () =>
    Layer.mergeAll(SqlOrganiserAccess.layer, SqlOrganiserCatalog.layer, SqlOrganiserArtists.layer).pipe(
      Layer.provide(Migrations.layer),
      Layer.provide(EmbeddedPg.layer())
    ),
  { timeout: 120_000 }
)
