/** In-memory RegistrationData: the seeded event tree, slots and sections, with the holders of each slot now. */
import { Effect, Layer, Result } from "effect"
import { RegistrationData } from "../../shifts/RegistrationData.js"
import { chosenSlots, holdersOf, InMemoryStore, waitlistedOf } from "../InMemoryStore.js"
import { submissionPlaces } from "./submissionPlaces.js"
import { seedSlotInstants } from "./seedSlotInstants.js"

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
                .map((event) => ({
                  id: event.id,
                  name: event.name,
                  parent_event_id: event.parent_event_id,
                  timezone: event.timezone ?? null
                }))
              : []
          )
        ),
      timeSlots: (eventIds) =>
        store.atomically((now) =>
          Result.succeed(
            seed.time_slots
              .filter((slot) => eventIds.includes(slot.event_id))
              .map((slot) => ({
                ...slot,
                ...seedSlotInstants(seed, slot),
                capacity: slot.capacity ?? null,
                holders: holdersOf(store.data, slot.id),
                waitlist: slot.waitlist ?? false,
                waitlisted: waitlistedOf(store.data, slot.id, seedSlotInstants(seed, slot).starts_at, now)
              }))
          )
        ),
      chosenSlots: (ids) => store.atomically((now) => Result.succeed(chosenSlots(store.data, ids, now))),
      placesOf: (submissionId) => store.atomically((now) => Result.succeed(submissionPlaces(store.data, submissionId, now))),
      sections: (eventIds) =>
        store.atomically(() =>
          Result.succeed(seed.event_sections.filter((section) => eventIds.includes(section.event_id)))
        )
    })
  })
)

/** The layer of `InMemoryRegistrationData`: `InMemoryRegistrationData.layer`. */
export const InMemoryRegistrationData = { layer: inMemoryRegistrationDataLayer } as const
