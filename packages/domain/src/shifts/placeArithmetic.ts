/**
 * The arithmetic of places (CONTRACT §22), pure: which place a submit gets on a slot, and which waiting places a
 * freed place promotes. The stores apply it atomically (the SQL functions of migration 25 compute the same).
 */

/** A submit's place on a slot: confirmed, waitlisted, or none (`full`: the submit is refused). */
export type PlaceOutcome = "confirmed" | "waitlisted" | "full"

export interface SlotPlaces {
  /** A positive integer, or null: unlimited. */
  readonly capacity: number | null
  readonly waitlist: boolean
  /** Confirmed places now (this submit not counted). */
  readonly confirmed: number
  /** Waiting places now (not expired). */
  readonly waiting: number
}

/**
 * Confirmed only when the slot is unlimited, or its confirmed places are below capacity and nobody waits (a
 * newcomer never passes the waitlist); else waitlisted on a waitlist slot; else full.
 */
export const placeFor = (slot: SlotPlaces): PlaceOutcome => {
  if (slot.capacity === null || (slot.confirmed < slot.capacity && slot.waiting === 0)) return "confirmed"
  return slot.waitlist ? "waitlisted" : "full"
}

/**
 * The waiting places to confirm, given them in order of joining: the earliest, as many as the confirmed places
 * are below capacity; none once the slot has started or when it is unlimited (nobody waits there).
 */
export const promotions = <A>(
  capacity: number | null,
  confirmed: number,
  waitingInOrder: ReadonlyArray<A>,
  started: boolean
): ReadonlyArray<A> => {
  if (capacity === null || started) return []
  return waitingInOrder.slice(0, Math.max(0, capacity - confirmed))
}
