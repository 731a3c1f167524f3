/** A port for GET /health/ready: does the database answer? The server supplies it (e.g. `SELECT 1`). */
import { Context, Effect, Layer } from "effect"
import type { Unavailable } from "@forms/domain"

export class Readiness extends Context.Service<Readiness, {
  readonly check: Effect.Effect<void, Unavailable>
}>()("@forms/adapters-http/Readiness") {
  /** Always ready: for tests and setups without a database. */
  static readonly layerAlways = Layer.succeed(Readiness, Readiness.of({ check: Effect.void }))
}
