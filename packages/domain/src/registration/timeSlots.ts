/** Time slots of a form's event tree (CONTRACT §2, §3): festival-aware, `HH:MM`, durations past midnight. */
import type { EventRecord, SlotAvailability } from "../ports/RegistrationData.js"
import { compareStrings } from "../shared/compareStrings.js"
import type { TimeSlot } from "./Registration.js"
import { remainingPlaces } from "./slotIntervals.js"

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

const timePattern = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/

/** Minutes since midnight of `H:MM`, `HH:MM` or `HH:MM:SS[.f]` (seconds count as fractions), or undefined. */
export const parseMinutes = (time: string): number | undefined => {
  const match = timePattern.exec(time.trim())
  if (match === null) return undefined
  const hours = Number(match[1])
  const minutes = Number(match[2])
  const seconds = match[3] === undefined ? 0 : Number(match[3])
  if (hours > 24 || minutes > 59 || seconds > 59) return undefined
  if (hours === 24 && (minutes > 0 || seconds > 0)) return undefined
  return hours * 60 + minutes + seconds / 60
}

/** `HH:MM`; a stored `08:00:00` becomes `08:00`, anything unparsable is kept as stored. */
export const formatTime = (time: string): string => {
  const match = timePattern.exec(time.trim())
  if (match === null || match[1] === undefined || match[2] === undefined) return time
  return `${match[1].padStart(2, "0")}:${match[2]}`
}

const dayMinutes = 24 * 60

/** Hours from start to end, two decimals; an end not after the start runs past midnight (equal: 24). */
export const durationHours = (start: string, end: string): number => {
  const from = parseMinutes(start)
  const to = parseMinutes(end)
  if (from === undefined || to === undefined) return 0
  const minutes = to > from ? to - from : to - from + dayMinutes
  return Math.round((minutes / 60) * 100) / 100
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
      duration_hours: durationHours(slot.start_time, slot.end_time),
      event_id: slot.event_id,
      event_name: names.get(slot.event_id) ?? "",
      capacity: slot.capacity,
      remaining: remainingPlaces(slot.capacity, slot.holders)
    }))
    .sort(compareSlots)
}
