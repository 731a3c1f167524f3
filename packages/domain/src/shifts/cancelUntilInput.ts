/**
 * A form definition's `cancel_until_hours` (CONTRACT §22): on volunteer forms an integer 0–720 (absent or null: 0),
 * the hours before a slot's start until which a confirmed place may be given up; on any other form type invalid.
 */
import type { FieldProblems } from "../rules/bodyChecks.js"

export const maxCancelUntilHours = 720

/** The member as read: a number, null when absent or null, undefined when a problem was added. */
export const readCancelUntilHours = (e: FieldProblems, type: string | undefined, value: unknown): number | null | undefined => {
  if (value === null || value === undefined) return null
  if (type !== undefined && type !== "volunteer") {
    return e.add("cancel_until_hours", "invalid", "cancel_until_hours is only for volunteer forms.")
  }
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > maxCancelUntilHours) {
    return e.add("cancel_until_hours", "invalid", `A whole number of hours from 0 to ${maxCancelUntilHours} is expected.`)
  }
  return value
}
