import { describe, it } from "@effect/vitest"
import { Layer } from "effect"
import { submissionsOutConformance } from "@forms/domain/testing"
import { Migrations } from "../../src/migrations/Migrations.js"
import { SqlOutboxAdmin } from "../../src/submissionsOut/SqlOutboxAdmin.js"
import { SqlRetention } from "../../src/submissionsOut/SqlRetention.js"
import { SqlSubmissionRecords } from "../../src/submissionsOut/SqlSubmissionRecords.js"
import { isolatedPg, skipReason, testDatabaseUrl } from "../support.js"
import { sqlSubmissionsOutFixture } from "./submissionsOutFixture.js"

// The domain's "Submissions out" conformance suite, unchanged, on a real PostgreSQL (exports through a cursor).
if (testDatabaseUrl === undefined) {
  console.warn(skipReason)
  describe("SQL submissions out ports on PostgreSQL", () => it.skip(skipReason, () => {}))
} else {
  const url = testDatabaseUrl
  submissionsOutConformance(
    "SQL submissions out ports on PostgreSQL",
    () =>
      Layer.mergeAll(SqlSubmissionRecords.layer, SqlOutboxAdmin.layer, SqlRetention.layer, sqlSubmissionsOutFixture).pipe(
        Layer.provide(Migrations.layer),
        Layer.provide(isolatedPg(url))
      ),
    { timeout: 120_000 }
  )
}
