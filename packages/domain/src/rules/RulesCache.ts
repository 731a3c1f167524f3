/** Compiled rules kept per schema revision, so a request never recompiles (least recently used dropped). */
import type { FormField } from "../forms/FormField.js"
import { compileRules } from "./compileRules.js"
import type { CompiledRules } from "./FieldErrors.js"

export interface RulesCache {
  /**
   * The rules compiled from `fields`, cached under `key`. The key must change whenever the fields
   * do: e.g. `${schema.id}:${schema.revision}` (add a section id when compiling a section's fields).
   */
  readonly get: (key: string, fields: ReadonlyArray<FormField>) => CompiledRules
  readonly size: () => number
  readonly clear: () => void
}

export const makeRulesCache = (maxEntries = 1000): RulesCache => {
  const limit = Math.max(1, Math.floor(maxEntries))
  const entries = new Map<string, CompiledRules>()
  return {
    get: (key, fields) => {
      const hit = entries.get(key)
      if (hit !== undefined) {
        // A Map iterates in insertion order: re-inserting marks the entry as the most recent.
        entries.delete(key)
        entries.set(key, hit)
        return hit
      }
      const rules = compileRules(fields)
      if (entries.size >= limit) {
        const oldest = entries.keys().next()
        if (oldest.done !== true) entries.delete(oldest.value)
      }
      entries.set(key, rules)
      return rules
    },
    size: () => entries.size,
    clear: () => entries.clear()
  }
}
