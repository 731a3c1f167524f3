/**
 * Time slots as intervals (CONTRACT §15 `overlap`, §22): `slotInterval` reads a slot's wall clock as minutes on
 * one calendar line (a slot whose end is not after its start ending the next day; equal start and end: 24
 * hours); overlap itself compares the slots' instants (`starts_at`, `ends_at`), whatever their zones.
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

/** A slot as instants (epoch ms), half-open `[starts_at, ends_at)`. */
export interface SlotSpan {
  readonly id: string
  readonly starts_at: number
  readonly ends_at: number
}

/** The ids of the chosen slots that overlap another chosen slot (on instants), in the order given (each once). */
export const overlappingSlotIds = (slots: ReadonlyArray<SlotSpan>): ReadonlyArray<string> => {
  const intervals = slots.map((slot) => ({ id: slot.id, interval: { start: slot.starts_at, end: slot.ends_at } }))
  const ordered = [...intervals].sort((a, b) => a.interval.start - b.interval.start)
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
