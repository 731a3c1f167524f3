/** A submission's places in memory as the answers show them (CONTRACT §22): by slot id, with waiting ranks. */
import type { SubmissionPlace } from "../../shifts/RegistrationData.js"
import type { InMemoryData } from "../InMemoryStore.js"
import { waitingIds } from "./inMemoryPlaces.js"
import { seedSlotInstants } from "./seedSlotInstants.js"

export const submissionPlaces = (data: InMemoryData, submissionId: string, now: number): ReadonlyArray<SubmissionPlace> => {
  const places: Array<SubmissionPlace> = []
  const slots = [...data.places.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  for (const slotId of slots) {
    const place = data.places.get(slotId)?.get(submissionId)
    const slot = data.seed.time_slots.find((t) => t.id === slotId)
    if (place === undefined) continue
    const started = slot !== undefined && seedSlotInstants(data.seed, slot).starts_at <= now
    if (place.status === "confirmed") places.push({ slot_id: slotId, status: "confirmed", position: null })
    else if (started) places.push({ slot_id: slotId, status: "expired", position: null })
    else {
      const position = waitingIds(data.places, slotId, false).indexOf(submissionId) + 1
      places.push({ slot_id: slotId, status: "waitlisted", position })
    }
  }
  return places
}
