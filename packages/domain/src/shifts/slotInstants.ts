/**
 * A slot's start and end as instants (CONTRACT §22): its date and times are local to its event's zone. The end
 * is on the slot's date, or the next day when its local end time is not after its start time; both are
 * resolved as Temporal's "compatible" disambiguation does (zonedTime.ts). A slot whose end would not be after its
 * start (only inside a clock change) has no instants.
 */
import { defaultTimeZone, instantOf, utcMs } from "./zonedTime.js"
import { parseMinutes } from "./slotTimes.js"

export interface SlotInstants {
  /** Epoch ms. */
  readonly starts_at: number
  readonly ends_at: number
}

export interface SlotClock {
  /** YYYY-MM-DD */
  readonly date: string
  readonly start_time: string
  readonly end_time: string
}

const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/

/** Undefined when the date or a time cannot be read, or when the end would not be after the start. */
export const slotInstants = (slot: SlotClock, zone: string): SlotInstants | undefined => {
  const match = datePattern.exec(slot.date)
  const from = parseMinutes(slot.start_time)
  const to = parseMinutes(slot.end_time)
  if (match === null || from === undefined || to === undefined) return undefined
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const starts_at = instantOf(zone, utcMs(year, month, day, from))
  const ends_at = instantOf(zone, utcMs(year, month, to > from ? day : day + 1, to))
  return ends_at > starts_at ? { starts_at, ends_at } : undefined
}

/** Hours from start to end, two decimals (23 or 25 across a daylight-saving night). */
export const instantHours = (instants: SlotInstants): number =>
  Math.round(((instants.ends_at - instants.starts_at) / 3_600_000) * 100) / 100

/**
 * The zone an event's slots are in: its own, else its parent's, else UTC (events nest one level).
 */
export const effectiveTimeZone = (own: string | null, parent: string | null | undefined): string =>
  own ?? parent ?? defaultTimeZone
