import { Layer } from "effect"
import { submissionsOutConformance } from "@forms/domain/testing"
import { EmbeddedPg } from "../../src/connection/EmbeddedPg.js"
import { Migrations } from "../../src/migrations/Migrations.js"
import { SqlOutboxAdmin } from "../../src/submissionsOut/SqlOutboxAdmin.js"
import { SqlRetention } from "../../src/submissionsOut/SqlRetention.js"
import { SqlSubmissionRecords } from "../../src/submissionsOut/SqlSubmissionRecords.js"
import { sqlSubmissionsOutFixture } from "./submissionsOutFixture.js"

// The domain's "Submissions out" conformance suite, unchanged, on PGlite (exports read keyset pages there).
submissionsOutConformance(
  "SQL submissions out ports on embedded PostgreSQL (PGlite)",
  () =>
    Layer.mergeAll(SqlSubmissionRecords.layer, SqlOutboxAdmin.layer, SqlRetention.layer, sqlSubmissionsOutFixture).pipe(
      Layer.provide(Migrations.layer),
      Layer.provide(EmbeddedPg.layer())
    ),
  { timeout: 120_000 }
)
