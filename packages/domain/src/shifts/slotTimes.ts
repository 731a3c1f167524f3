/** The times of a time slot (CONTRACT §2, §15): `HH:MM` read and written, durations past midnight. */

/** Minutes in a day: a slot whose end is not after its start runs this much longer. */
export const dayMinutes = 24 * 60

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

/** Hours from start to end, two decimals; an end not after the start runs past midnight (equal: 24). */
export const durationHours = (start: string, end: string): number => {
  const from = parseMinutes(start)
  const to = parseMinutes(end)
  if (from === undefined || to === undefined) return 0
  const minutes = to > from ? to - from : to - from + dayMinutes
  return Math.round((minutes / 60) * 100) / 100
}
