/** Values as a submission stores them: only the schema's slugs, own keys only, null-prototype maps. */
import type { FormField } from "../forms/FormField.js"
import { emptyValues, pickValues, type Values } from "../forms/Values.js"

/** The slugs of a schema's fields, for membership tests that no prototype key can pass. */
export const schemaSlugs = (fields: ReadonlyArray<FormField>): ReadonlySet<string> =>
  new Set(fields.map((field) => field.slug))

/** Keeps the own keys of `values` that are slugs of `fields`; unknown keys (`__proto__`, `id`, …) are dropped. */
export const pickSchemaValues = (fields: ReadonlyArray<FormField>, values: Values): Record<string, unknown> => {
  const slugs = schemaSlugs(fields)
  return pickValues(values, (key) => slugs.has(key))
}

/** `patch` over `saved`: a fresh null-prototype map; a key in `patch` wins, even with null. */
export const mergeValues = (saved: Values, patch: Values): Record<string, unknown> => {
  const out = emptyValues()
  for (const key of Object.keys(saved)) out[key] = saved[key]
  for (const key of Object.keys(patch)) out[key] = patch[key]
  return out
}

/** `values` without the keys in `slugs` (a fresh null-prototype map), or `values` itself when there are none. */
export const withoutSlugs = (values: Record<string, unknown>, slugs: ReadonlyArray<string> | undefined): Record<string, unknown> => {
  if (slugs === undefined || slugs.length === 0) return values
  const dropped = new Set(slugs)
  const out = emptyValues()
  for (const key of Object.keys(values)) if (!dropped.has(key)) out[key] = values[key]
  return out
}
