import { describe, it, layer } from "@effect/vitest"
import { Layer } from "effect"
import { InProcessSignal } from "@forms/domain"
import { portalFixture } from "@forms/domain/testing"
import { SqlSubmissionRecords } from "../../src/submissionsOut/SqlSubmissionRecords.js"
import { isolatedPg, seededPortalPorts, skipReason, testDatabaseUrl } from "../support.js"
import { contactErasureScenarios } from "./contactErasure.js"

if (testDatabaseUrl === undefined) {
  console.warn(skipReason)
  describe("identity match racing an erasure on PostgreSQL", () => it.skip(skipReason, () => {}))
} else {
  // A pool of connections: the link and the erasure run in separate sessions, really at once.
  const ports = seededPortalPorts(isolatedPg(testDatabaseUrl, 10), portalFixture, InProcessSignal.layer)
  layer(SqlSubmissionRecords.layer.pipe(Layer.provideMerge(ports)), { timeout: "120 seconds", excludeTestServices: true })(
    "identity match racing an erasure on PostgreSQL",
    contactErasureScenarios
  )
}
