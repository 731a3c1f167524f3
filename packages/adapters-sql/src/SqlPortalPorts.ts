/** The portal and event-handler ports on PostgreSQL, given a `SqlClient` (and, beneath them, an `OutboxSignal`). */
import { Layer } from "effect"
import { SqlEngagements } from "./portal/SqlEngagements.js"
import { SqlEnrichment } from "./events/SqlEnrichment.js"
import { SqlSchemaCatalog } from "./forms/SqlSchemaCatalog.js"
import { SqlValueTargets } from "./portal/SqlValueTargets.js"

export const SqlPortalPorts = {
  /**
   * Engagements, ValueTargets, Enrichment and SchemaCatalog. An `OutboxSignal` provided beneath this layer
   * (and beneath `SqlPorts.layer`) is notified after every commit that recorded events; the signal itself
   * is `SqlOutboxSignal.layer({ url })` on a server and `InProcessSignal.layer` on PGlite.
   */
  layer: Layer.mergeAll(SqlEngagements.layer, SqlValueTargets.layer, SqlEnrichment.layer, SqlSchemaCatalog.layer)
} as const
