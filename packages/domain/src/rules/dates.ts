/** Calendar dates and RFC 3339 date-times (CONTRACT §4 `date`), read into a comparable day key. */

const digit = (s: string, i: number): number => {
  const c = s.charCodeAt(i) - 48
  return c >= 0 && c <= 9 ? c : -1
}

/** Two digits at `i` as a number, or -1. */
const twoDigits = (s: string, i: number): number => {
  const a = digit(s, i)
  const b = digit(s, i + 1)
  return a < 0 || b < 0 ? -1 : a * 10 + b
}

const isLeapYear = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0

const daysInMonth = (year: number, month: number): number =>
  month === 2 ? (isLeapYear(year) ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31

/**
 * The time part after `T` at index `i`: `HH:MM`, optional `:SS` and fraction, optional `Z` or `±HH:MM`.
 * Seconds run 00-59: a leap second (60) is refused, like most parsers downstream do.
 */
const isTimePart = (s: string, i: number): boolean => {
  const n = s.length
  const hour = twoDigits(s, i)
  if (hour < 0 || hour > 23 || s.charCodeAt(i + 2) !== 58 /* : */) return false
  const minute = twoDigits(s, i + 3)
  if (minute < 0 || minute > 59) return false
  let j = i + 5
  if (j < n && s.charCodeAt(j) === 58 /* : */) {
    const second = twoDigits(s, j + 1)
    if (second < 0 || second > 59) return false
    j += 3
    if (j < n && s.charCodeAt(j) === 46 /* . */) {
      j++
      const start = j
      while (j < n && digit(s, j) >= 0) j++
      if (j === start) return false
    }
  }
  if (j === n) return true
  const c = s.charCodeAt(j)
  if (c === 90 /* Z */) return j + 1 === n
  if (c !== 43 /* + */ && c !== 45 /* - */) return false
  if (j + 6 !== n || s.charCodeAt(j + 3) !== 58) return false
  const offsetHour = twoDigits(s, j + 1)
  const offsetMinute = twoDigits(s, j + 4)
  return offsetHour >= 0 && offsetHour <= 23 && offsetMinute >= 0 && offsetMinute <= 59
}

/**
 * `YYYY-MM-DD` (an existing date) or an RFC 3339 date-time on such a date, as the number
 * `YYYYMMDD` of the date written in it (the offset is ignored); -1 when `s` is neither.
 */
export const dateKey = (s: string): number => {
  const n = s.length
  if (n < 10 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return -1
  const hi = twoDigits(s, 0)
  const lo = twoDigits(s, 2)
  const month = twoDigits(s, 5)
  const day = twoDigits(s, 8)
  if (hi < 0 || lo < 0 || month < 1 || month > 12 || day < 1) return -1
  const year = hi * 100 + lo
  if (day > daysInMonth(year, month)) return -1
  if (n !== 10 && (s.charCodeAt(10) !== 84 /* T */ || !isTimePart(s, 11))) return -1
  return year * 10000 + month * 100 + day
}

/** `YYYYMMDD` back to `YYYY-MM-DD`, for messages. */
export const formatDateKey = (key: number): string => {
  const year = Math.floor(key / 10000)
  const month = Math.floor(key / 100) % 100
  const day = key % 100
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`
}
