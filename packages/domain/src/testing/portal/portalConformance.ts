/** The conformance suite of the portal and event ports: every store adapter (in memory, PostgreSQL) must pass it unchanged. */
import { describe, layer } from "@effect/vitest"
import type { Layer } from "effect"
import type { Ports } from "../../memory/InMemory.js"
import type { PortalPorts } from "../../memory/portal/InMemoryPortal.js"
import { type PortalFixture, portalFixture } from "../../memory/portal/portalFixture.js"
import { enrichmentConformance } from "../events/enrichmentConformance.js"
import { outboxSignalConformance } from "../events/outboxSignalConformance.js"
import { engagementsConformance } from "./engagementsConformance.js"
import { sectionSubmitConformance } from "./sectionSubmitConformance.js"
import { valueTargetsConformance } from "./valueTargetsConformance.js"

export interface PortalConformanceOptions {
  /** Milliseconds for building and closing the layer. Default 60 s. */
  readonly timeout?: number
}

/**
 * Registers the conformance tests of Engagements, ValueTargets, Enrichment, SchemaCatalog and
 * OutboxSignal in a `describe(name)` block. Call it at the top level of a test file:
 *
 *   portalConformance("PostgreSQL", (fixture) => SqlPorts.layer.pipe(Layer.provide(seededDatabase(fixture))))
 *
 * The contract with the adapter (as `portConformance`'s):
 * - `makeLayer(fixture)` is called once; the layer is built before the first test and closed after the
 *   last. Its store must hold exactly `portalFixture` (a valid §10 fixture with master artists and
 *   engagements: load it with your fixture loader; portal tokens stored as hashes) and nothing else.
 * - The tests share that store and run one after another, on the live clock; they never depend on each
 *   other (the engagements they write to are theirs alone; keys carry a random run id). Tests that read
 *   events first claim (and mark delivered) every event already due.
 * - Parallel tests use `Effect.all(…, { concurrency: "unbounded" })`: the guarantees must hold across
 *   connections. A section submit must wake `OutboxSignal` waiters (NOTIFY in its transaction, or an
 *   in-process notify after the commit).
 */
export const portalConformance = (
  name: string,
  makeLayer: (fixture: PortalFixture) => Layer.Layer<Ports | PortalPorts, unknown>,
  options: PortalConformanceOptions = {}
): void => {
  const timeout = options.timeout ?? 60_000
  describe(name, () => {
    layer(makeLayer(portalFixture), { timeout, excludeTestServices: true })("portal port conformance", (it) => {
      engagementsConformance(it, portalFixture)
      sectionSubmitConformance(it)
      valueTargetsConformance(it)
      enrichmentConformance(it, portalFixture)
      outboxSignalConformance(it)
    })
  })
}
