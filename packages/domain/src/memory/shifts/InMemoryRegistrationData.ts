/** In-memory RegistrationData: the seeded event tree, slots and sections, with the holders of each slot now. */
import { Effect, Layer, Result } from "effect"
import { RegistrationData } from "../../shifts/RegistrationData.js"
import { chosenSlots, holdersOf, InMemoryStore } from "../InMemoryStore.js"

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

/** The layer of `InMemoryRegistrationData`: `InMemoryRegistrationData.layer`. */
export const InMemoryRegistrationData = { layer: inMemoryRegistrationDataLayer } as const
