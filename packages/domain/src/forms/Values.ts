/** The values of a form: what submissions store, events carry and the rules check. */
import { Schema } from "effect"

/** A map from field slug to value. Built with a null prototype, never by spreading a client's object. */
export const Values = Schema.Record(Schema.String, Schema.Unknown)
export type Values = typeof Values.Type

export const emptyValues = (): Record<string, unknown> => Object.create(null) as Record<string, unknown>

/** Copies the own enumerable keys of `source` that `keep` accepts into a fresh null-prototype map. */
export const pickValues = (source: Values, keep: (slug: string) => boolean): Record<string, unknown> => {
  const out = emptyValues()
  for (const key of Object.keys(source)) {
    if (keep(key)) out[key] = source[key]
  }
  return out
}

/** A fresh null-prototype copy of the own enumerable keys of `source` (a stored or sent map is never shared). */
export const copyValues = (source: Values): Record<string, unknown> => pickValues(source, () => true)
