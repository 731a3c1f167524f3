/** Every port of the portal and the event handlers in memory, over the same store as the public-form ports. */
import type { FileStorage } from "../../files/FileStorage.js"
import { Layer } from "effect"
import type { Enrichment } from "../../events/Enrichment.js"
import type { OutboxSignal } from "../../events/OutboxSignal.js"
import type { SchemaCatalog } from "../../events/SchemaCatalog.js"
import type { Engagements } from "../../portal/Engagements.js"
import type { ValueTargets } from "../../portal/ValueTargets.js"
import { InMemoryEnrichment, InMemorySchemaCatalog } from "../events/InMemoryEnrichment.js"
import { InMemoryOutboxSignal } from "../events/InMemoryOutboxSignal.js"
import { InMemory, type Ports } from "../InMemory.js"
import type { InMemoryStore } from "../InMemoryStore.js"
import { InMemoryEngagements, InMemoryValueTargets } from "./InMemoryEngagements.js"
import { InMemoryPortalStore } from "./InMemoryPortalStore.js"
import { type PortalFixture, portalFixture } from "./portalFixture.js"

/** The services of the ports this part adds (the portal, the handlers' targets and the dispatcher's signal). */
export type PortalPorts = Engagements | ValueTargets | Enrichment | SchemaCatalog | OutboxSignal

export const InMemoryPortal = {
  /**
   * A fresh store per build: every port (the public-form ones too, sharing one outbox), plus
   * `InMemoryStore` and `InMemoryPortalStore` to read and change the state in tests.
   */
  layer: (
    fixture: PortalFixture = portalFixture
  ): Layer.Layer<Ports | PortalPorts | FileStorage | InMemoryStore | InMemoryPortalStore> =>
    Layer.mergeAll(
      InMemoryEngagements.layer,
      InMemoryValueTargets.layer,
      InMemoryEnrichment.layer,
      InMemorySchemaCatalog.layer
    ).pipe(
      Layer.provideMerge(
        Layer.mergeAll(InMemory.layer(fixture), InMemoryPortalStore.layer(fixture), InMemoryOutboxSignal.layer)
      )
    )
}
