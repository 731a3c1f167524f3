/**
 * Places on time slots in memory (CONTRACT §15, §22): each slot's places by submission, with their status and
 * order of joining; the arithmetic is the domain's (shifts/placeArithmetic.ts), applied inside a critical section.
 */
import type { NewOutboxEvent } from "../../events/Outbox.js"
import { promotions } from "../../shifts/placeArithmetic.js"

export interface MemoryPlace {
  status: "confirmed" | "waitlisted"
  /** Order of joining (a counter of the store). */
  readonly joined: number
  /** Epoch ms; null while waiting. */
  confirmed_at: number | null
}

/** Slot id → submission id → place. */
export type MemoryPlaces = Map<string, Map<string, MemoryPlace>>

export const placesOf = (places: MemoryPlaces, slotId: string): Map<string, MemoryPlace> => {
  let of = places.get(slotId)
  if (of === undefined) {
    of = new Map()
    places.set(slotId, of)
  }
  return of
}

export const confirmedCount = (places: MemoryPlaces, slotId: string): number =>
  [...(places.get(slotId)?.values() ?? [])].filter((p) => p.status === "confirmed").length

/** The waiting submissions of a slot in order of joining (none once it has started: their places expired). */
export const waitingIds = (places: MemoryPlaces, slotId: string, started: boolean): ReadonlyArray<string> =>
  started
    ? []
    : [...(places.get(slotId)?.entries() ?? [])]
      .filter(([, p]) => p.status === "waitlisted")
      .sort(([, a], [, b]) => a.joined - b.joined)
      .map(([id]) => id)

export interface PromotableSlot {
  readonly id: string
  readonly capacity: number | null
  readonly starts_at: number
}

/**
 * Confirms the earliest waiting places of each slot (in id order) while there is room and the slot has not
 * started; the `place.promoted` events to record, in order.
 */
export const promoteIn = (
  places: MemoryPlaces,
  slots: ReadonlyArray<PromotableSlot>,
  now: number,
  eventOf: (slotId: string, submissionId: string) => NewOutboxEvent
): ReadonlyArray<NewOutboxEvent> => {
  const events: Array<NewOutboxEvent> = []
  for (const slot of [...slots].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    const started = slot.starts_at <= now
    const promoted = promotions(slot.capacity, confirmedCount(places, slot.id), waitingIds(places, slot.id, started), started)
    for (const id of promoted) {
      const place = places.get(slot.id)?.get(id)
      if (place === undefined) continue
      place.status = "confirmed"
      place.confirmed_at = now
      events.push(eventOf(slot.id, id))
    }
  }
  return events
}
