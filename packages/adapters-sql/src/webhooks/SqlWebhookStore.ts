/** The `WebhookStore` port on PostgreSQL (CONTRACT §13): endpoints and deliveries; fan-out lives in SqlOutbox.markDelivered. */
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { WebhookStore } from "@forms/domain"
import { makeDeliveryMethods } from "./SqlWebhookDeliveries.js"
import { makeEndpointMethods } from "./SqlWebhookEndpoints.js"

export const makeSqlWebhookStore = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return WebhookStore.of({ ...makeEndpointMethods(sql), ...makeDeliveryMethods(sql) })
})

export const SqlWebhookStore = {
  layer: Layer.effect(WebhookStore, makeSqlWebhookStore)
} as const
