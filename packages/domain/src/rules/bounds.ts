/** The `min` / `max` rules: reading a bound for a field's type, and their messages. */
import { dateKey, formatDateKey } from "./dates.js"
import { isNumericString, type TypeRule } from "./types.js"

/**
 * What a field's bounds compare: a `numeric` field the number's value, a `date` field the calendar
 * date (as `YYYYMMDD`), any other field the length of strings in code points. Arrays (fields with
 * options) compare their item count, except on `date` fields, whose bounds are dates: there every
 * item's date is compared.
 */
export type BoundKind = "numeric" | "date" | "length"

export const boundKindOf = (rule: TypeRule | undefined): BoundKind =>
  rule === "numeric" ? "numeric" : rule === "date" ? "date" : "length"

/**
 * A bound as its field compares it, or undefined when it cannot be read for that field: numeric and
 * length bounds are finite numbers or numeric strings; date bounds are date or date-time strings.
 */
export const readBound = (kind: BoundKind, bound: unknown): number | undefined => {
  if (kind === "date") {
    if (typeof bound !== "string") return undefined
    const key = dateKey(bound.trim())
    return key < 0 ? undefined : key
  }
  if (typeof bound === "number") return Number.isFinite(bound) ? bound : undefined
  if (typeof bound !== "string") return undefined
  const trimmed = bound.trim()
  if (!isNumericString(trimmed)) return undefined
  const n = Number(trimmed)
  return Number.isFinite(n) ? n : undefined
}

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`

/** Smallest whole count that satisfies `count >= bound`. */
const atLeast = (bound: number): number => Math.max(0, Math.ceil(bound))
/** Largest whole count that satisfies `count <= bound`. */
const atMost = (bound: number): number => Math.max(0, Math.floor(bound))

export const minMessage = (kind: BoundKind, bound: number, items: boolean): string =>
  items && kind !== "date"
    ? `Select at least ${plural(atLeast(bound), "option", "options")}.`
    : kind === "numeric"
    ? `Must be at least ${String(bound)}.`
    : kind === "date"
    ? `Must be on or after ${formatDateKey(bound)}.`
    : `Must be at least ${plural(atLeast(bound), "character", "characters")}.`

export const maxMessage = (kind: BoundKind, bound: number, items: boolean): string =>
  items && kind !== "date"
    ? `Select at most ${plural(atMost(bound), "option", "options")}.`
    : kind === "numeric"
    ? `Must be at most ${String(bound)}.`
    : kind === "date"
    ? `Must be on or before ${formatDateKey(bound)}.`
    : `Must be at most ${plural(atMost(bound), "character", "characters")}.`
