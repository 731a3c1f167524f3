import { describe, it } from "@effect/vitest"
import { genericPlanScenarios } from "./genericPlans.js"
import { isolatedPg, skipReason, testDatabaseUrl } from "../support.js"

if (testDatabaseUrl === undefined) {
  console.warn(skipReason)
  describe("generic plans on PostgreSQL", () => it.skip(skipReason, () => {}))
} else {
  genericPlanScenarios("generic plans on PostgreSQL", isolatedPg(testDatabaseUrl, 2))
}
