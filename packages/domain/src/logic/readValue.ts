/**
 * What a condition's `var` reads of a field's value (CONTRACT §18): null when empty or inactive; a `boolean` field's
 * value as true/false and a `numeric` field's as a number when they pass their type rule; an array as its items,
 * strings trimmed; any other string trimmed; other JSON values as sent. A value of a shape no field takes (an
 * object, an array holding one, a number JSON cannot hold) is refused as `invalid` whatever a condition makes of
 * it, and reads null, so a condition only ever compares strings, numbers, booleans, null and arrays of these.
 */

import { isBooleanString, isNumericString } from "../forms/valueForms.js"

const trim = (s: string): string => s.trim()

/** How a field's value is read: by its type (`boolean`, `numeric`), any other type alike. */
export type ReadKind = "boolean" | "numeric" | "other"

export const readKindOf = (fieldType: string): ReadKind =>
  fieldType === "boolean" ? "boolean" : fieldType === "numeric" ? "numeric" : "other"

const isPrimitive = (item: unknown): boolean =>
  item === null || typeof item === "string" || typeof item === "boolean" || (typeof item === "number" && Number.isFinite(item))

/** The normalised value of an active field. */
export const readValue = (kind: ReadKind, value: unknown): unknown => {
  switch (typeof value) {
    case "string": {
      const s = trim(value)
      if (s === "") return null
      if (kind === "boolean" && isBooleanString(s)) return s === "true" || s === "1"
      if (kind === "numeric" && isNumericString(s)) return Number(s)
      return s
    }
    case "number":
      if (!Number.isFinite(value)) return null
      if (kind === "boolean" && (value === 0 || value === 1)) return value === 1
      return value
    case "boolean":
      return value
    case "object":
      if (!Array.isArray(value) || value.length === 0 || !value.every(isPrimitive)) return null
      return value.map((item: unknown) => (typeof item === "string" ? trim(item) : item))
    default:
      return null
  }
}
