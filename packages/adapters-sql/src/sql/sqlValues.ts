/**
 * Small SQL helpers every adapter uses: times as epoch milliseconds, ids checked before a query, JSON parameters,
 * and JSON columns read back as values.
 */
import { emptyValues } from "@forms/domain"

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
