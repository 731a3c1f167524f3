import { layer } from "@effect/vitest"
import { Layer } from "effect"
import { InProcessSignal } from "@forms/domain"
import { portalFixture } from "@forms/domain/testing"
import { EmbeddedPg } from "../../src/connection/EmbeddedPg.js"
import { SqlSubmissionRecords } from "../../src/submissionsOut/SqlSubmissionRecords.js"
import { seededPortalPorts } from "../support.js"
import { contactErasureScenarios } from "./contactErasure.js"

layer(SqlSubmissionRecords.layer.pipe(Layer.provideMerge(seededPortalPorts(EmbeddedPg.layer(), portalFixture, InProcessSignal.layer))), {
  timeout: "120 seconds",
  excludeTestServices: true
})("identity match racing an erasure on embedded PostgreSQL (PGlite)", contactErasureScenarios)
