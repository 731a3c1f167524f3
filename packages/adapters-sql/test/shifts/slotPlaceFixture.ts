/** The slot-place conformance fixture on PostgreSQL: a submitted submission and its place, stored with plain SQL. */
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { SlotPlaceFixture } from "@forms/domain/testing"

export const sqlSlotPlaceFixture = Layer.effect(SlotPlaceFixture, Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return SlotPlaceFixture.of({
    hold: (actor, slotId) =>
      Effect.orDie(sql.withTransaction(Effect.gen(function*() {
        const schemaId = `form-places-${actor.organisation_id}`
        yield* sql`INSERT INTO form_schemas (id, organisation_id, name, type, status, revision)
          VALUES (${schemaId}, ${actor.organisation_id}, 'Shifts', 'volunteer', 'published', 1) ON CONFLICT (id) DO NOTHING`
        const [row] = yield* sql<{ readonly id: string }>`
          INSERT INTO submissions (schema_id, idempotency_key, status, created_at, updated_at, submitted_at)
          VALUES (${schemaId}, ${crypto.randomUUID()}, 'submitted', now(), now(), now()) RETURNING id::text AS id`
        yield* sql`INSERT INTO slot_places (slot_id, submission_id) VALUES (${slotId}, ${row!.id}::uuid)`
        return row!.id
      }))),
    release: (submissionId) => Effect.orDie(Effect.asVoid(sql`DELETE FROM submissions WHERE id = ${submissionId}::uuid`))
  })
}))
