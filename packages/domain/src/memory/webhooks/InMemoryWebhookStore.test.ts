import { Layer } from "effect"
import { webhookStoreConformance } from "../../testing/webhooks/webhookStoreConformance.js"
import { conformanceSeed } from "../conformanceSeed.js"
import { InMemoryStore } from "../InMemoryStore.js"
import { InMemoryOrganiser } from "../organiser/InMemoryOrganiser.js"
import { InMemoryWebhookStore } from "./InMemoryWebhookStore.js"

webhookStoreConformance(
  "in-memory webhook store",
  () => Layer.mergeAll(InMemoryWebhookStore.layer.pipe(Layer.provide(InMemoryStore.layer(conformanceSeed))), InMemoryOrganiser.layer)
)
