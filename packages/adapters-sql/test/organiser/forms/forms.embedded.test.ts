import { Layer } from "effect"
import { formsConformance } from "@forms/domain/testing"
import { EmbeddedPg } from "../../../src/connection/EmbeddedPg.js"
import { Migrations } from "../../../src/migrations/Migrations.js"
import { SqlOrganiserAccess } from "../../../src/organiser/catalog/SqlOrganiserAccess.js"
import { SqlOrganiserArtists } from "../../../src/organiser/artists/SqlOrganiserArtists.js"
import { SqlOrganiserCatalog } from "../../../src/organiser/catalog/SqlOrganiserCatalog.js"
import { SqlOrganiserForms } from "../../../src/organiser/forms/SqlOrganiserForms.js"

// The domain's OrganiserForms conformance suite, unchanged, on PGlite.
formsConformance(
  "SQL OrganiserForms on embedded PostgreSQL (PGlite)",
  () =>
    Layer.mergeAll(SqlOrganiserAccess.layer, SqlOrganiserCatalog.layer, SqlOrganiserArtists.layer, SqlOrganiserForms.layer).pipe(
      Layer.provide(Migrations.layer),
      Layer.provide(EmbeddedPg.layer())
    ),
  { timeout: 120_000 }
)
