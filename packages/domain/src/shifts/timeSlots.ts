/** Time slots of a form's event tree (CONTRACT §2, §3): festival-aware, `HH:MM`, durations past midnight. */
import { compareStrings } from "../shared/compareStrings.js"
import type { EventRecord, SlotAvailability } from "./RegistrationData.js"
import { instantHours } from "./slotInstants.js"
import { formatTime } from "./slotTimes.js"
import { remainingPlaces, type TimeSlot } from "./TimeSlot.js"

/**
 * The events whose slots a form lists, given `tree` = the event and its direct children (the port's
 * `eventTree`). A top-level event (no `parent_event_id`) is a festival: itself and its children. An
 * event that is itself a child lists its own slots only.
 */
export const festivalEventIds = (eventId: string, tree: ReadonlyArray<EventRecord>): ReadonlyArray<string> => {
  const self = tree.find((event) => event.id === eventId)
  if (self === undefined) return []
  if (self.parent_event_id !== null) return [self.id]
  return [self.id, ...tree.filter((event) => event.parent_event_id === self.id).map((event) => event.id)]
}

const compareSlots = (a: TimeSlot, b: TimeSlot): number =>
  compareStrings(a.date, b.date) ||
  compareStrings(a.start_time, b.start_time) ||
  compareStrings(a.name, b.name) ||
  compareStrings(a.id, b.id)

/** The public time-slot resources, sorted by date, start_time, name, then id. */
export const toTimeSlots = (
  slots: ReadonlyArray<SlotAvailability>,
  events: ReadonlyArray<EventRecord>
): ReadonlyArray<TimeSlot> => {
  const names = new Map(events.map((event) => [event.id, event.name]))
  return slots
    .map((slot): TimeSlot => ({
      id: slot.id,
      name: slot.name,
      date: slot.date,
      start_time: formatTime(slot.start_time),
      end_time: formatTime(slot.end_time),
      starts_at: slot.starts_at,
      ends_at: slot.ends_at,
      duration_hours: instantHours(slot),
      signup_opens_at: slot.signup_opens_at,
      signup_closes_at: slot.signup_closes_at,
      event_id: slot.event_id,
      event_name: names.get(slot.event_id) ?? "",
      capacity: slot.capacity,
      remaining: remainingPlaces(slot.capacity, slot.holders),
      waitlist: slot.waitlist,
      waitlisted: slot.waitlisted
    }))
    .sort(compareSlots)
}
