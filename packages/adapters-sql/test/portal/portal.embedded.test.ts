import { InProcessSignal } from "@forms/domain"
import { portalConformance } from "@forms/domain/testing"
import { EmbeddedPg } from "../../src/connection/EmbeddedPg.js"
import { seededPortalPorts } from "../support.js"

// The domain's portal conformance suite, unchanged, on PGlite (one connection; the signal is in process).
portalConformance(
  "SQL portal ports on embedded PostgreSQL (PGlite)",
  (fixture) => seededPortalPorts(EmbeddedPg.layer(), fixture, InProcessSignal.layer),
  { timeout: 120_000 }
)
