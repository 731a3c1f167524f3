import { layer } from "@effect/vitest"
import { EmbeddedPg } from "../../src/connection/EmbeddedPg.js"
import { concurrencyScenarios, raceLayer } from "./concurrency.js"

// On PGlite every statement queues on its one connection: the races must still give the same answers.
layer(raceLayer(EmbeddedPg.layer()), { timeout: "120 seconds", excludeTestServices: true })(
  "concurrency on embedded PostgreSQL (one connection)",
  (it) => concurrencyScenarios(it)
)
