/**
 * How a time slot is named to people (CONTRACT §12, §15): `<name> <date> <start>–<end>`, in an export's cells and
 * in the `full` message, so a slot is recognised without its id.
 */
import { compareStrings } from "../shared/compareStrings.js"
import { formatTime } from "./slotTimes.js"

/** What a slot's label is made of. */
export interface LabelledSlot {
  readonly id: string
  readonly name: string
  /** YYYY-MM-DD */
  readonly date: string
  /** HH:MM (a stored `HH:MM:SS` is shown as `HH:MM`) */
  readonly start_time: string
  readonly end_time: string
}

/** `Bar 2027-08-20 08:00–12:00` (an en dash between the times). */
export const slotLabel = (slot: LabelledSlot): string =>
  `${slot.name} ${slot.date} ${formatTime(slot.start_time)}\u2013${formatTime(slot.end_time)}`

/** The order slots are listed in (CONTRACT §2): date, start, name, then id. */
export const compareLabelledSlots = (a: LabelledSlot, b: LabelledSlot): number =>
  compareStrings(a.date, b.date) ||
  compareStrings(formatTime(a.start_time), formatTime(b.start_time)) ||
  compareStrings(a.name, b.name) ||
  compareStrings(a.id, b.id)
