/**
 * What the slot-place conformance suite needs besides the organiser ports: a submitted submission holding a
 * place on a slot, stored where the public-form ports store it (the shared in-memory store, or the database),
 * and its removal. Each adapter brings its own (the in-memory one beside it, the SQL one in adapters-sql's tests).
 */
import { Context, Effect, Layer } from "effect"
import { InMemoryStore } from "../../../memory/InMemoryStore.js"
import { emptySeed, formSchemaFromSeed, seedSchemaDefaults } from "../../../memory/Seed.js"
import type { Actor } from "../../../shared/Actor.js"
import { placesOf } from "../../../memory/shifts/inMemoryPlaces.js"

export class SlotPlaceFixture extends Context.Service<SlotPlaceFixture, {
  /** A submitted submission of a form of the actor's organisation holding a place on the slot; its id. */
  readonly hold: (actor: Actor, slotId: string) => Effect.Effect<string>
  /** Deletes the submission (its places go with it). */
  readonly release: (submissionId: string) => Effect.Effect<void>
}>()("@forms/domain/testing/SlotPlaceFixture") {}

const inMemorySlotPlaceFixture = Layer.effect(SlotPlaceFixture, Effect.gen(function*() {
  const store = yield* InMemoryStore
  const { data } = store
  return SlotPlaceFixture.of({
    hold: (actor, slotId) =>
      Effect.sync(() => {
        const schemaId = `form-places-${actor.organisation_id}`
        if (!data.schemas.has(schemaId)) {
          data.schemas.set(schemaId, formSchemaFromSeed(emptySeed, {
            ...seedSchemaDefaults, id: schemaId, organisation_id: actor.organisation_id, event_id: null, name: "Shifts", type: "volunteer"
          }))
        }
        const id = store.nextId("submission")
        data.submissions.set(id, {
          id, schema_id: schemaId, status: "submitted", idempotency_key: id, auto_save_count: 0, event_id: null, subject_id: null,
          values: Object.create(null) as Record<string, never>, language: "en", created_at: 0, updated_at: 0, submitted_at: 0, version: 2
        })
        data.sequence += 1
        placesOf(data.places, slotId).set(id, { status: "confirmed", joined: data.sequence, confirmed_at: 0 })
        return id
      }),
    release: (submissionId) =>
      Effect.sync(() => {
        data.submissions.delete(submissionId)
        for (const holders of data.places.values()) holders.delete(submissionId)
      })
  })
}))

/** `InMemorySlotPlaceFixture.layer`: the fixture over the `InMemoryStore` in context. */
export const InMemorySlotPlaceFixture = { layer: inMemorySlotPlaceFixture } as const
