import { describe, it } from "@effect/vitest"
import { webhookFanOutConformance } from "@forms/domain/testing"
import { webhookFanOutLayer } from "./webhookFanOut.js"
import { isolatedPg, skipReason, testDatabaseUrl } from "../support.js"

// The domain's webhook fan-out conformance suite, unchanged, on a real PostgreSQL.
if (testDatabaseUrl === undefined) {
  console.warn(skipReason)
  describe("SQL webhook fan-out on PostgreSQL", () => it.skip(skipReason, () => {}))
} else {
  const url = testDatabaseUrl
  webhookFanOutConformance("SQL webhook fan-out on PostgreSQL", () => webhookFanOutLayer(isolatedPg(url)), { timeout: 120_000 })
}
