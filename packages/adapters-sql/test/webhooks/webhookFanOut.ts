/** The webhook fan-out conformance suite's layer on SQL: the ports and an outbox event recorded with a chosen time. */
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { WebhookEventFixture } from "@forms/domain/testing"
import { Migrations } from "../../src/migrations/Migrations.js"
import { SqlOrganiserAccess } from "../../src/organiser/catalog/SqlOrganiserAccess.js"
import { SqlOutbox } from "../../src/events/SqlOutbox.js"
import { SqlWebhookStore } from "../../src/webhooks/SqlWebhookStore.js"

const fixture = Layer.effect(WebhookEventFixture, Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return WebhookEventFixture.of({
    record: (organisationId, at) =>
      Effect.orDie(Effect.map(
        sql<{ readonly id: string }>`INSERT INTO outbox (type, payload, available_at, created_at)
          VALUES ('submission.submitted', ${JSON.stringify({ organisation_id: organisationId, schema_id: "fs-x", values: {} })}::jsonb,
            ${new Date(at)}::timestamptz, ${new Date(at)}::timestamptz)
          RETURNING id::text AS id`,
        (rows) => rows[0]?.id ?? ""
      ))
  })
}))

export const webhookFanOutLayer = <E>(database: Layer.Layer<SqlClient.SqlClient, E>) =>
  Layer.mergeAll(SqlOrganiserAccess.layer, SqlWebhookStore.layer, SqlOutbox.layer, fixture).pipe(
    Layer.provide(Migrations.layer),
    Layer.provide(database)
  )
