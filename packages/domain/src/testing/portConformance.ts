/** The port conformance suite: one set of tests every store adapter (in memory, PostgreSQL) must pass unchanged. */
import { describe, layer } from "@effect/vitest"
import type { Layer } from "effect"
import { conformanceSeed } from "../memory/conformanceSeed.js"
import type { Ports } from "../memory/InMemory.js"
import type { ConformanceSeed } from "../memory/Seed.js"
import { outboxConformance } from "./events/outboxConformance.js"
import { fileUploadsConformance } from "./files/fileUploadsConformance.js"
import { rateLimiterConformance } from "./limits/rateLimiterConformance.js"
import { catalogConformance } from "./publicForms/catalogConformance.js"
import { submissionsConformance } from "./publicForms/submissionsConformance.js"
import { uniqueValuesConformance } from "./publicForms/uniqueValuesConformance.js"
import { placesConformance } from "./shifts/placesConformance.js"
import { shiftPlacesConformance } from "./shifts/shiftPlacesConformance.js"

export interface PortConformanceOptions {
  /** Milliseconds for building and closing the layer (a database may need a while). Default 60 s. */
  readonly timeout?: number
}

/**
 * Registers the conformance tests of every port (FormSchemas, RegistrationData, Submissions with places on
 * time slots, UniqueValues, Outbox, RateLimiter, FileUploads) in a `describe(name)` block. Call it at the top level of a test file:
 *
 *   portConformance("PostgreSQL", (seed) => SqlPorts.layer.pipe(Layer.provide(seededDatabase(seed))))
 *
 * The contract with the adapter:
 * - `makeLayer(seed)` is called once, when the tests are registered; the layer is built once before the
 *   first test and closed after the last. Its store must hold exactly `seed` (a valid §10 fixture,
 *   `conformanceSeed`) and nothing else the tests could see: load it with your fixture loader.
 * - The tests share that store and run one after another. They never depend on each other: every key,
 *   idempotency key and unique value carries a random run id; Outbox tests first claim (and mark
 *   delivered) every event already due.
 * - Time: tests run on the live clock, except the RateLimiter tests, which provide a TestClock around
 *   their calls. `RateLimiter.hit` must read the time from Effect's Clock in the calling fiber (never
 *   the database's clock) and must not sleep. Outbox due-ness compares with the caller's Clock too.
 * - Parallel tests use `Effect.all(…, { concurrency: "unbounded" })` on one layer: a store whose
 *   guarantees hold only per connection fails them.
 * - Ids: a malformed submission id (`"not-a-uuid"`) is an unknown one (None / SubmissionNotFound), never
 *   a failure of the store.
 */
export const portConformance = (
  name: string,
  makeLayer: (seed: ConformanceSeed) => Layer.Layer<Ports, unknown>,
  options: PortConformanceOptions = {}
): void => {
  const timeout = options.timeout ?? 60_000
  describe(name, () => {
    layer(makeLayer(conformanceSeed), { timeout, excludeTestServices: true })("port conformance", (it) => {
      catalogConformance(it, conformanceSeed)
      submissionsConformance(it)
      uniqueValuesConformance(it)
      placesConformance(it)
      shiftPlacesConformance(it)
      outboxConformance(it)
      rateLimiterConformance(it)
      fileUploadsConformance(it)
    })
  })
}
