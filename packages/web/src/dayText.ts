/**
 * A slot's day as a visitor reads it: "Fri 20 Aug 2027" from "2027-08-20", the weekday computed from the date (a
 * calendar date, no time zone). English for now, like every text of the elements; a form's language will choose
 * the names once forms have languages. A date that is not `YYYY-MM-DD` is shown as it is.
 */

const weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"] as const
const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const

export const dayText = (date: string): string => {
  const parts = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date)
  if (parts === null) return date
  const [year, month, day] = [Number(parts[1]), Number(parts[2]), Number(parts[3])]
  const utc = new Date(Date.UTC(year, month - 1, day))
  // Date.UTC rolls 2027-02-30 over to 2 March: such a date is not a day of the calendar.
  if (utc.getUTCFullYear() !== year || utc.getUTCMonth() !== month - 1 || utc.getUTCDate() !== day) return date
  return `${weekdays[utc.getUTCDay()]} ${day} ${months[month - 1]} ${year}`
}
