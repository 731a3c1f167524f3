/**
 * Prefill (CONTRACT §18): a new draft's first values from the page address's query parameters named after the
 * form's slugs (`?email=a%40b.nl&ref=newsletter`); a repeated parameter makes an array. `lang` is never a value,
 * and parameters that name no field, or a `file` or `time_slots` field, are ignored.
 */
import type { Field } from "./fields.js"

const notPrefilled = new Set(["file", "time_slots"])

export const prefillOf = (search: string, fields: ReadonlyArray<Field>): Record<string, unknown> => {
  const params = new URLSearchParams(search)
  const out: Record<string, unknown> = {}
  for (const field of fields) {
    if (field.slug === "lang" || notPrefilled.has(field.type)) continue
    const given = params.getAll(field.slug)
    if (given.length === 0) continue
    out[field.slug] = given.length === 1 ? given[0] : given
  }
  return out
}
