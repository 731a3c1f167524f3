/**
 * The places a submit took (CONTRACT §22), as its `submission.submitted` event carries them: read from the chosen
 * slots as the store holds them with this submission's places taken. A waiting place joined last, so its rank is
 * the slot's waiting count.
 */
import type { NewOutboxEvent } from "../events/Outbox.js"
import { SubmissionSubmittedType } from "../events/LifecycleEvents.js"
import type { ChosenSlot, SubmissionPlace } from "./RegistrationData.js"

export const placesTaken = (held: ReadonlyArray<ChosenSlot>): ReadonlyArray<SubmissionPlace> =>
  [...held]
    .filter((slot) => slot.place === "confirmed" || slot.place === "waitlisted")
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((slot): SubmissionPlace =>
      slot.place === "waitlisted"
        ? { slot_id: slot.id, status: "waitlisted", position: slot.waitlisted }
        : { slot_id: slot.id, status: "confirmed", position: null }
    )

/** The submit's events with `places` set on its `submission.submitted` payload (the others as they are). */
export const withPlacesTaken = (
  events: ReadonlyArray<NewOutboxEvent>,
  held: ReadonlyArray<ChosenSlot>
): ReadonlyArray<NewOutboxEvent> => {
  const places = placesTaken(held)
  return events.map((event) =>
    event.type === SubmissionSubmittedType && "places" in event.payload
      ? { ...event, payload: { ...event.payload, places: places.map((place) => ({ ...place })) } }
      : event
  )
}
