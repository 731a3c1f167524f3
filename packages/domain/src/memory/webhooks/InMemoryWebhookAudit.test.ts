import { Layer } from "effect"
import { webhookAuditConformance } from "../../testing/webhooks/webhookAuditConformance.js"
import { conformanceSeed } from "../conformanceSeed.js"
import { InMemoryStore } from "../InMemoryStore.js"
import { InMemoryOrganiser } from "../organiser/InMemoryOrganiser.js"
import { InMemoryWebhookStore } from "./InMemoryWebhookStore.js"

// The organiser built over the webhook store's InMemoryStore: one audit log, as one table on SQL.
webhookAuditConformance(
  "in-memory webhook store audit",
  () => Layer.mergeAll(InMemoryWebhookStore.layer, InMemoryOrganiser.layer).pipe(Layer.provideMerge(InMemoryStore.layer(conformanceSeed)))
)
