import { describe, it } from "@effect/vitest"
import { portalConformance } from "@forms/domain/testing"
import { SqlOutboxSignal } from "../../src/events/SqlOutboxSignal.js"
import { isolatedPg, seededPortalPorts, skipReason, testDatabaseUrl, testSchemaName } from "../support.js"

// The domain's portal conformance suite, unchanged, on a real PostgreSQL: a pool of 20, LISTEN on its own connection.
if (testDatabaseUrl === undefined) {
  console.warn(skipReason)
  describe("SQL portal ports on PostgreSQL", () => it.skip(skipReason, () => {}))
} else {
  const url = testDatabaseUrl
  const schema = testSchemaName()
  portalConformance(
    "SQL portal ports on PostgreSQL",
    (fixture) => seededPortalPorts(isolatedPg(url, 20, schema), fixture, SqlOutboxSignal.layer({ url, schema })),
    { timeout: 120_000 }
  )
}
