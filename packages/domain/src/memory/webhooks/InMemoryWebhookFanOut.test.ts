import { Effect, Layer } from "effect"
import { WebhookEventFixture, webhookFanOutConformance } from "../../testing/webhooks/webhookFanOutConformance.js"
import { conformanceSeed } from "../conformanceSeed.js"
import { InMemoryOutbox } from "../events/InMemoryOutbox.js"
import { InMemoryStore } from "../InMemoryStore.js"
import { InMemoryOrganiser } from "../organiser/InMemoryOrganiser.js"
import { InMemoryWebhookStore } from "./InMemoryWebhookStore.js"

const fixture = Layer.effect(WebhookEventFixture, Effect.gen(function*() {
  const store = yield* InMemoryStore
  return WebhookEventFixture.of({
    record: (organisationId, at) =>
      Effect.sync(() => {
        const id = store.nextId("event")
        store.data.outbox.push({
          id, type: "submission.submitted", payload: { organisation_id: organisationId, schema_id: "fs-x", values: {} },
          attempts: 0, last_error: null, available_at: at, claimed_until: null, delivered_at: null, dead_at: null, created_at: at
        })
        return id
      })
  })
}))

webhookFanOutConformance(
  "in-memory webhook fan-out",
  () => Layer.mergeAll(InMemoryWebhookStore.layer, InMemoryOutbox.layer, InMemoryOrganiser.layer, fixture).pipe(
    Layer.provideMerge(InMemoryStore.layer(conformanceSeed))
  )
)
