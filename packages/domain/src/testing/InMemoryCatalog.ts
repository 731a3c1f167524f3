/** In-memory FormSchemas and RegistrationData, read from the seeded store. */
import { Effect, Layer, Option, Result } from "effect"
import { FormSchemas } from "../publicForms/FormSchemas.js"
import { RegistrationData } from "../shifts/RegistrationData.js"
import { chosenSlots, holdersOf, InMemoryStore } from "./InMemoryStore.js"

const inMemoryFormSchemasLayer = Layer.effect(
  FormSchemas,
  Effect.gen(function*() {
    const store = yield* InMemoryStore
    return FormSchemas.of({
      findByToken: (token) =>
        store.atomically(() => {
          for (const schema of store.data.schemas.values()) {
            if (schema.public_token === token || schema.previous_public_token === token) {
              return Result.succeed(Option.some(schema))
            }
          }
          return Result.succeed(Option.none())
        }),
      findCurrent: (schemaId) => store.atomically(() => Result.succeed(Option.fromUndefinedOr(store.data.schemas.get(schemaId))))
    })
  })
)

const inMemoryRegistrationDataLayer = Layer.effect(
  RegistrationData,
  Effect.gen(function*() {
    const store = yield* InMemoryStore
    const { seed } = store.data
    return RegistrationData.of({
      eventTree: (eventId) =>
        store.atomically(() =>
          Result.succeed(
            seed.events.some((event) => event.id === eventId)
              ? seed.events
                .filter((event) => event.id === eventId || event.parent_event_id === eventId)
                .map((event) => ({ id: event.id, name: event.name, parent_event_id: event.parent_event_id }))
              : []
          )
        ),
      timeSlots: (eventIds) =>
        store.atomically(() =>
          Result.succeed(
            seed.time_slots
              .filter((slot) => eventIds.includes(slot.event_id))
              .map((slot) => ({ ...slot, capacity: slot.capacity ?? null, holders: holdersOf(store.data, slot.id) }))
          )
        ),
      chosenSlots: (ids) => store.atomically(() => Result.succeed(chosenSlots(store.data, ids))),
      sections: (eventIds) =>
        store.atomically(() =>
          Result.succeed(seed.event_sections.filter((section) => eventIds.includes(section.event_id)))
        )
    })
  })
)

/** The layer of `InMemoryFormSchemas`: `InMemoryFormSchemas.layer`. */
export const InMemoryFormSchemas = { layer: inMemoryFormSchemasLayer } as const

/** The layer of `InMemoryRegistrationData`: `InMemoryRegistrationData.layer`. */
export const InMemoryRegistrationData = { layer: inMemoryRegistrationDataLayer } as const
