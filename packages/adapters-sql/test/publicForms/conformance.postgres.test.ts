import { describe, it } from "@effect/vitest"
import { portConformance } from "@forms/domain/testing"
import { isolatedPg, seededPorts, skipReason, testDatabaseUrl } from "../support.js"

// The domain's port conformance suite, unchanged, on a real PostgreSQL with a pool of 20 connections.
if (testDatabaseUrl === undefined) {
  console.warn(skipReason)
  describe("SQL ports on PostgreSQL", () => it.skip(skipReason, () => {}))
} else {
  const url = testDatabaseUrl
  portConformance("SQL ports on PostgreSQL", (seed) => seededPorts(isolatedPg(url), seed), { timeout: 120_000 })
}
