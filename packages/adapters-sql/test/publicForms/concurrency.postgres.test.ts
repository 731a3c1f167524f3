import { describe, it, layer } from "@effect/vitest"
import { concurrencyScenarios, raceLayer } from "./concurrency.js"
import { isolatedPg, skipReason, testDatabaseUrl } from "../support.js"

// Parallel connections (a pool of 20) on a real PostgreSQL: the races of CONTRACT §3, §4 and §8.
if (testDatabaseUrl === undefined) {
  console.warn(skipReason)
  describe("concurrency on PostgreSQL", () => it.skip(skipReason, () => {}))
} else {
  layer(raceLayer(isolatedPg(testDatabaseUrl, 20)), { timeout: "120 seconds", excludeTestServices: true })(
    "concurrency on PostgreSQL (pool of 20)",
    (it) => concurrencyScenarios(it)
  )
}
