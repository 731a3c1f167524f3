// The organiser use cases: an event, its time slots and a section, an artist, an engagement.
import { Organiser, OrganiserAccess } from "@forms/domain"
import { Effect } from "effect"
import { randomBytes } from "node:crypto"

export const organiserProgram = Effect.gen(function*() {
  // What `pnpm cli organisation create` and `pnpm cli api-key create` do: an organisation and an API key for it.
  const access = yield* OrganiserAccess
  const organisation = yield* access.createOrganisation("Summer Sounds")
  const key = `fok_${randomBytes(32).toString("base64url")}`
  yield* access.createApiKey({ organisation_id: organisation.id, name: "booking office", key, created_at: Date.now() })

  const organiser = yield* Organiser
  const actor = yield* organiser.authenticate(key) // every use case is scoped by the actor's organisation
  const event = yield* organiser.createEvent(actor, { name: "Summer Sounds 2027" })
  const slot = { date: "2027-07-02", start_time: "08:00", end_time: "12:00" }
  yield* organiser.createTimeSlot(actor, event.id, { ...slot, name: "Bar, Friday morning", capacity: 12 })
  yield* organiser.createTimeSlot(actor, event.id, { ...slot, name: "Gate, Friday morning" }) // capacity: none
  yield* organiser.createEventSection(actor, event.id, { name: "Main stage" })
  const artist = yield* organiser.createArtist(actor, { name: "The Harmonics" })
  const engagement = yield* organiser.createEngagement(actor, {
    event_id: event.id,
    master_artist_id: artist.id,
    advance_sections: [{ name: "Travel", position: 1 }, { name: "Technical rider", position: 2 }]
  })
  // A bad body writes nothing and fails with ValidationFailed: a message per member (the API's 422).
  const refused = yield* organiser.createTimeSlot(actor, event.id, { ...slot, name: "Night", start_time: "25:00" }).pipe(
    Effect.map(() => "accepted"),
    Effect.catchTag("ValidationFailed", (failure) => Effect.succeed(Object.keys(failure.fields).join(", ")))
  )
  const slots = yield* organiser.listTimeSlots(actor, event.id, { limit: 50, after: undefined })
  return {
    slots: slots.items.map((s) => `${s.name} ${s.start_time}-${s.end_time} (${s.capacity ?? "no limit"})`),
    advance: engagement.advance_sections.map((s) => `${s.name}: ${s.status}`),
    refused
  }
})
