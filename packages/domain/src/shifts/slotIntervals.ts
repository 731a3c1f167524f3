/**
 * Time slots as intervals (CONTRACT §15 `overlap`): minutes on one calendar line, a slot whose end is not
 * after its start ending the next day (equal start and end: 24 hours). Every slot of a festival reads
 * the same local clock, so no time zone enters the arithmetic.
 */
import { dayMinutes, parseMinutes } from "./slotTimes.js"

export interface SlotTimes {
  readonly date: string
  readonly start_time: string
  readonly end_time: string
}

/** Half-open `[start, end)` in minutes since 1970-01-01. */
export interface Interval {
  readonly start: number
  readonly end: number
}

const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/

/** The slot's interval, or undefined when its date or a time is malformed (never for stored slots). */
export const slotInterval = (slot: SlotTimes): Interval | undefined => {
  const match = datePattern.exec(slot.date)
  const from = parseMinutes(slot.start_time)
  const to = parseMinutes(slot.end_time)
  if (match === null || from === undefined || to === undefined) return undefined
  const day = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) / 60_000
  const start = day + from
  return { start, end: day + (to > from ? to : to + dayMinutes) }
}

/** Intervals that only touch (one ends when the other starts) do not overlap. */
export const intervalsOverlap = (a: Interval, b: Interval): boolean => a.start < b.end && b.start < a.end

/**
 * The ids of the chosen slots that overlap another chosen slot, in the order given (each once). Slots
 * whose times cannot be read overlap nothing.
 */
export const overlappingSlotIds = <S extends SlotTimes & { readonly id: string }>(
  slots: ReadonlyArray<S>
): ReadonlyArray<string> => {
  const intervals = slots.map((slot) => ({ id: slot.id, interval: slotInterval(slot) }))
  const ordered = intervals
    .filter((entry): entry is { id: string; interval: Interval } => entry.interval !== undefined)
    .sort((a, b) => a.interval.start - b.interval.start)
  const overlapping = new Set<string>()
  // Sorted by start: a slot overlaps an earlier one exactly when it starts before the latest end so far.
  let latest: { id: string; end: number } | undefined
  for (const entry of ordered) {
    if (latest !== undefined && entry.interval.start < latest.end) {
      overlapping.add(entry.id)
      overlapping.add(latest.id)
    }
    if (latest === undefined || entry.interval.end > latest.end) latest = { id: entry.id, end: entry.interval.end }
  }
  return intervals.filter((entry) => overlapping.has(entry.id)).map((entry) => entry.id)
}
