/**
 * Small SQL helpers every adapter uses: times as epoch milliseconds, ids checked before a query, JSON parameters,
 * and JSON columns read back as values and tags.
 */
import { emptyValues } from "@forms/domain"
import { compareStrings } from "@forms/domain/internal"

/** Epoch milliseconds of a timestamptz column, as a float8 (a JavaScript number). */
export const epochMs = (column: string): string => `floor(extract(epoch from ${column}) * 1000)::float8`

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Ids are checked before any query, so a malformed id is an unknown one, never a SQL error. */
export const isUuid = (id: string): boolean => uuidPattern.test(id)

/** JSON text for a `::jsonb` parameter. */
export const jsonText = (value: unknown): string => JSON.stringify(value)

/** A JSON object from the database as a null-prototype map (a `__proto__` key stays a plain key). */
export const toValues = (json: unknown): Record<string, unknown> => {
  const out = emptyValues()
  if (typeof json === "object" && json !== null && !Array.isArray(json)) {
    for (const [key, value] of Object.entries(json)) out[key] = value
  }
  return out
}

/** The string elements of a JSON array (`tags` columns); anything else holds none. */
export const tagsOf = (json: unknown): ReadonlyArray<string> =>
  Array.isArray(json) ? json.filter((tag): tag is string => typeof tag === "string") : []

/** A set of tags sorted by code unit (CONTRACT §2), as the in-memory adapters keep it; `COLLATE "C"` sorts by code point. */
export const sortedTags = (tags: Iterable<string>): ReadonlyArray<string> => [...new Set(tags)].sort(compareStrings)

/** A JSON object column (a profile, an advance) as an object; anything else stored there reads as `{}`. */
export const asObject = (value: unknown): Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
