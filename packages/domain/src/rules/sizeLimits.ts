/** The size limits of CONTRACT §8 on a `values` map as sent: before trimming, for every key. */
import type { FieldError, FieldErrors } from "./FieldErrors.js"

export interface SizeLimits {
  /** Keys of the `values` map, counted as sent; the error is reported under `values`. */
  readonly maxValuesKeys: number
  /** Code points of one string value (also of each string inside an array). */
  readonly maxStringLength: number
  /** Items of one array value. */
  readonly maxArrayItems: number
}

export const defaultSizeLimits: SizeLimits = Object.freeze({
  maxValuesKeys: 500,
  maxStringLength: 10_000,
  maxArrayItems: 200
})

/** True when `s` holds more than `max` code points; counts only when the UTF-16 length cannot decide. */
const longerThan = (s: string, max: number): boolean => {
  const units = s.length
  if (units <= max) return false
  let count = 0
  for (let i = 0; i < units; i++) {
    const c = s.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < units) {
      const d = s.charCodeAt(i + 1)
      if (d >= 0xdc00 && d <= 0xdfff) i++
    }
    if (++count > max) return true
  }
  return false
}

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`

/**
 * The §8 errors of the `values` map of a request body (pass `body.values`, as parsed), under the
 * key `values` (too many keys) and under each offending key, rule `max_length`; undefined when
 * within the limits or when `values` is not an object (its shape is checked elsewhere). Each key
 * gets one error: an array over the item limit, else a string (or a string in an array) too long.
 */
export const checkSizeLimits = (values: unknown, limits: SizeLimits = defaultSizeLimits): FieldErrors | undefined => {
  if (typeof values !== "object" || values === null || Array.isArray(values)) return undefined
  const map = values as Readonly<Record<string, unknown>>
  const { maxArrayItems, maxStringLength, maxValuesKeys } = limits
  const keys = Object.keys(map)
  let errors: Record<string, ReadonlyArray<FieldError>> | undefined
  const add = (key: string, message: string): void => {
    errors ??= Object.create(null) as Record<string, ReadonlyArray<FieldError>>
    // a slug may be named `values` too: both errors are kept
    errors[key] = [...(errors[key] ?? []), { rule: "max_length", message }]
  }
  if (keys.length > maxValuesKeys) add("values", `Must have at most ${plural(maxValuesKeys, "key", "keys")}.`)
  const tooLong = `Must be at most ${plural(maxStringLength, "character", "characters")}.`
  for (const key of keys) {
    // `map.__proto__` would read the prototype, not the own key JSON.parse creates
    const value = key === "__proto__" ? Object.getOwnPropertyDescriptor(map, key)?.value : map[key]
    if (typeof value === "string") {
      if (longerThan(value, maxStringLength)) add(key, tooLong)
    } else if (Array.isArray(value)) {
      if (value.length > maxArrayItems) {
        add(key, `Must have at most ${plural(maxArrayItems, "item", "items")}.`)
        continue
      }
      for (const item of value) {
        if (typeof item === "string" && longerThan(item, maxStringLength)) {
          add(key, tooLong)
          break
        }
      }
    }
  }
  return errors
}
