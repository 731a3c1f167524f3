/** A seeded slot's instants, in its event's zone (its own, its parent's, else UTC), as a store computes and keeps them. */
import type { ConformanceSeed } from "../Seed.js"
import type { TimeSlotRecord } from "../../shifts/RegistrationData.js"
import { effectiveTimeZone, type SlotInstants, slotInstants } from "../../shifts/slotInstants.js"

/** The zone of the seeded event (UTC for an unknown one). */
export const seedEventZone = (seed: ConformanceSeed, eventId: string): string => {
  const event = seed.events.find((e) => e.id === eventId)
  const parent = event?.parent_event_id == null ? undefined : seed.events.find((e) => e.id === event.parent_event_id)
  return effectiveTimeZone(event?.timezone ?? null, parent?.timezone ?? null)
}

const instantOrNull = (iso: string | null | undefined): number | null => (iso == null ? null : Date.parse(iso))

/**
 * The slot's instants and sign-up window (epoch ms). A seed whose slot has no instants (inside a clock change) is
 * refused by every fixture check; here it starts and ends at its start.
 */
export const seedSlotInstants = (
  seed: ConformanceSeed,
  slot: TimeSlotRecord
): SlotInstants & { readonly signup_opens_at: number | null; readonly signup_closes_at: number | null } => {
  const window = { signup_opens_at: instantOrNull(slot.signup_opens_at), signup_closes_at: instantOrNull(slot.signup_closes_at) }
  const instants = slotInstants(slot, seedEventZone(seed, slot.event_id))
  if (instants !== undefined) return { ...instants, ...window }
  const start = slotInstants({ ...slot, end_time: slot.start_time }, "UTC")?.starts_at ?? 0
  return { starts_at: start, ends_at: start, ...window }
}
