/** In-memory RegistrationData: the seeded event tree, slots and sections, with the holders of each slot now. */
import { Effect, Layer, Result } from "effect"
import { RegistrationData } from "../../shifts/RegistrationData.js"
import { chosenSlots, holdersOf, InMemoryStore, waitlistedOf } from "../InMemoryStore.js"
import type { SubmissionPlace } from "../../shifts/RegistrationData.js"
import { waitingIds } from "./inMemoryPlaces.js"
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
      placesOf: (submissionId) =>
        store.atomically((now) => {
          const places: Array<SubmissionPlace> = []
          const slots = [...store.data.places.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
          for (const slotId of slots) {
            const place = store.data.places.get(slotId)?.get(submissionId)
            const slot = seed.time_slots.find((t) => t.id === slotId)
            if (place === undefined) continue
            const started = slot !== undefined && seedSlotInstants(seed, slot).starts_at <= now
            if (place.status === "confirmed") places.push({ slot_id: slotId, status: "confirmed", position: null })
            else if (started) places.push({ slot_id: slotId, status: "expired", position: null })
            else {
              const position = waitingIds(store.data.places, slotId, false).indexOf(submissionId) + 1
              places.push({ slot_id: slotId, status: "waitlisted", position })
            }
          }
          return Result.succeed(places)
        }),
      sections: (eventIds) =>
        store.atomically(() =>
          Result.succeed(seed.event_sections.filter((section) => eventIds.includes(section.event_id)))
        )
    })
  })
)

/** The layer of `InMemoryRegistrationData`: `InMemoryRegistrationData.layer`. */
export const InMemoryRegistrationData = { layer: inMemoryRegistrationDataLayer } as const
