import { webhookFanOutConformance } from "@forms/domain/testing"
import { EmbeddedPg } from "../../src/connection/EmbeddedPg.js"
import { webhookFanOutLayer } from "./webhookFanOut.js"

// The domain's webhook fan-out conformance suite, unchanged, on PGlite.
webhookFanOutConformance("SQL webhook fan-out on embedded PostgreSQL (PGlite)", () => webhookFanOutLayer(EmbeddedPg.layer()), { timeout: 120_000 })
