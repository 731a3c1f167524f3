/**
 * What the `unique` rule compares (CONTRACT §4): a value's key, one string per value, equal exactly when
 * the contract calls two values the same. Adapters store a digest of it (SQL: `0006_unique_digest`,
 * which re-keys old claims with the same functions written in SQL: keep the two in step).
 */
import { trimString } from "./emptiness.js"
import { isNumericString } from "./types.js"

/** How a field's unique values compare. */
export const U_TEXT = 0
/** Case-insensitively (`email` fields). */
export const U_EMAIL = 1
/** By the number's exact decimal value (`numeric` fields). */
export const U_NUMERIC = 2
/** By the digits alone (`phone` fields). */
export const U_PHONE = 3

// Sign, integer digits, fraction digits, exponent of a string in the contract's numeric form (linear: no overlap).
const numericParts = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/

/**
 * The key of a number in the contract's numeric form (trimmed): `[-]<digits>e<exponent>`, the digits
 * without leading or trailing zeros, the value being digits × 10^exponent; every zero (`-0`, `0.00`,
 * `0e9`) is `"0"`. So `12`, `"12.0"`, `"1.2e1"`, `"012"` and `"+120e-1"` are all `"12e0"`.
 *
 * Exact, never rounded to a double: `"1e400"` and `"10e399"` are one value, `"1e400"` and `"2e400"`
 * two (as a double both would be Infinity), `"0.1"` and `"0.10000000000000001"` two. The exponent is a
 * BigInt, so any exponent the size limits let through works, and the key is never much longer than
 * the value. A string outside the numeric form (which the type rule refuses first) is its own key.
 */
export const numericKey = (text: string): string => {
  const parts = isNumericString(text) ? numericParts.exec(text) : null
  if (parts === null) return text
  const integer = parts[2] ?? ""
  const fraction = parts[3] ?? ""
  const all = integer + fraction
  let first = 0
  while (first < all.length && all.charCodeAt(first) === 48 /* 0 */) first++
  if (first === all.length) return "0"
  let end = all.length
  while (all.charCodeAt(end - 1) === 48) end--
  const exponent = BigInt(parts[4] ?? "0") - BigInt(fraction.length) + BigInt(all.length - end)
  return `${parts[1] === "-" ? "-" : ""}${all.slice(first, end)}e${exponent}`
}

/** A phone number's digits alone: `+31 6 1234 5678`, `+31-6-12345678` and `31612345678` are one value. */
export const phoneKey = (text: string): string => text.replace(/[^0-9]/g, "")

/** One scalar's key: `text` is the trimmed string, or a number as `String(n)`. */
const scalarKey = (kind: number, text: string): string => {
  switch (kind) {
    case U_EMAIL:
      return text.toLowerCase()
    case U_NUMERIC:
      return numericKey(text)
    case U_PHONE:
      return phoneKey(text)
    default:
      return text
  }
}

const textOf = (item: string | number): string => typeof item === "string" ? trimString(item) : String(item)

/**
 * The key of a value that passed its field's rules: a string or number (booleans as `String(v)`) by the
 * field's kind; an array (fields with options) as the JSON list of its items' keys, sorted by code
 * units, so a selection is the same whatever its order.
 */
export const uniqueKeyOf = (kind: number, value: unknown): string => {
  if (typeof value === "string") return scalarKey(kind, trimString(value))
  if (Array.isArray(value)) {
    const keys = value.map((item: string | number) => scalarKey(kind, textOf(item)))
    keys.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    return JSON.stringify(keys)
  }
  return typeof value === "number" ? scalarKey(kind, String(value)) : String(value)
}
