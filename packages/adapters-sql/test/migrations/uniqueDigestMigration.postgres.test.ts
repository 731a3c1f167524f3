import { describe, it } from "@effect/vitest"
import { isolatedPg, skipReason, testDatabaseUrl } from "../support.js"
import { uniqueDigestMigrationScenarios } from "./uniqueDigestMigration.js"

if (testDatabaseUrl === undefined) {
  console.warn(skipReason)
  describe("migration 0006 on PostgreSQL", () => it.skip(skipReason, () => {}))
} else {
  uniqueDigestMigrationScenarios("migration 0006 on PostgreSQL", isolatedPg(testDatabaseUrl, 2))
}
