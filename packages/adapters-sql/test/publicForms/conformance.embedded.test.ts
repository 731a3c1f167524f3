import { portConformance } from "@forms/domain/testing"
import { EmbeddedPg } from "../../src/connection/EmbeddedPg.js"
import { seededPorts } from "../support.js"

// The domain's port conformance suite, unchanged, on PGlite behind its loopback socket (one connection).
portConformance("SQL ports on embedded PostgreSQL (PGlite)", (seed) => seededPorts(EmbeddedPg.layer(), seed), {
  timeout: 120_000
})
