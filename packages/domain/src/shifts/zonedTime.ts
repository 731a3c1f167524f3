/**
 * Wall-clock times in a time zone as instants, the way Temporal's `disambiguation: "compatible"` resolves them:
 * a time in a spring-forward gap moves forward by the gap, an ambiguous time (the repeated hour of a fall-back
 * night) takes the earlier instant. Offsets come from the platform's `Intl` time-zone data, never from a table
 * of our own; each zone's formatter is built once.
 */

const dayMs = 24 * 60 * 60 * 1000

/** The zone a top-level event without one uses. */
export const defaultTimeZone = "UTC"

/** Longest zone name accepted (the longest IANA name is 32 characters). */
const maxZoneLength = 64

const formatters = new Map<string, Intl.DateTimeFormat>()

const formatterOf = (zone: string): Intl.DateTimeFormat => {
  let formatter = formatters.get(zone)
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric"
    })
    formatters.set(zone, formatter)
  }
  return formatter
}

/**
 * The IANA name of `value` when it is one the platform knows (its case as the time-zone data spells it), else
 * undefined: offsets such as `+01:00`, empty or overlong strings and unknown names are refused.
 */
export const timeZoneName = (value: unknown): string | undefined => {
  if (typeof value !== "string" || value.length === 0 || value.length > maxZoneLength) return undefined
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(value)) return undefined
  try {
    const resolved = new Intl.DateTimeFormat("en-US", { timeZone: value }).resolvedOptions().timeZone
    // An alias (US/Pacific) stays as given; a name that differs only in case takes the data's spelling.
    return resolved.toLowerCase() === value.toLowerCase() ? resolved : value
  } catch {
    return undefined
  }
}

/** Milliseconds since the epoch of a proleptic Gregorian date and time read as UTC (years 1–99 included). */
export const utcMs = (year: number, month: number, day: number, minutes = 0, seconds = 0): number => {
  const date = new Date(0)
  date.setUTCFullYear(year, month - 1, day)
  return date.getTime() + minutes * 60_000 + seconds * 1000
}

/** The zone's offset from UTC at `instant`, in milliseconds (wall clock minus UTC). */
export const offsetAt = (zone: string, instant: number): number => {
  const at = Math.floor(instant / 1000) * 1000
  const parts: Record<string, number> = {}
  for (const part of formatterOf(zone).formatToParts(new Date(at))) {
    if (part.type !== "literal") parts[part.type] = Number(part.value)
  }
  const wall = utcMs(parts["year"] ?? 0, parts["month"] ?? 1, parts["day"] ?? 1, (parts["hour"] ?? 0) * 60 + (parts["minute"] ?? 0), parts["second"] ?? 0)
  return wall - at
}

/** The wall-clock time at `instant` in the zone, as milliseconds of a UTC clock showing it. */
export const wallAt = (zone: string, instant: number): number => instant + offsetAt(zone, instant)

/**
 * The instant of a wall-clock time (`wall`: milliseconds of a UTC clock showing it) in the zone, as Temporal's
 * "compatible" disambiguation picks it. The offsets a day before and after bracket any real transition.
 */
export const instantOf = (zone: string, wall: number): number => {
  const before = offsetAt(zone, wall - dayMs)
  const after = offsetAt(zone, wall + dayMs)
  const candidates = [wall - before, wall - after].filter((instant) => wallAt(zone, instant) === wall)
  // Ambiguous: the earlier of the two; in a gap: the offset before the change, which lands after the gap.
  return candidates.length > 0 ? Math.min(...candidates) : wall - before
}
