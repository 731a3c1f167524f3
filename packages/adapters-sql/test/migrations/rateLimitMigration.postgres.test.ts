import { describe, it } from "@effect/vitest"
import { isolatedPg, skipReason, testDatabaseUrl } from "../support.js"
import { rateLimitMigrationScenarios } from "./rateLimitMigration.js"

if (testDatabaseUrl === undefined) {
  console.warn(skipReason)
  describe("migration 0015 on PostgreSQL", () => it.skip(skipReason, () => {}))
} else {
  rateLimitMigrationScenarios("migration 0015 on PostgreSQL", isolatedPg(testDatabaseUrl, 2))
}
