/** Compiled rules kept per field definition they were compiled from, so a request never recompiles and a changed definition never meets old rules. */
import type { FormField } from "../forms/FormField.js"
import { compileRules } from "./compileRules.js"
import type { CompiledRules } from "./Validator.js"

export interface RulesCache {
  /**
   * The rules compiled from `fields`. Keyed by what they are compiled from, never by a schema revision
   * (a field edited in place keeps its schema's revision): first by the array object (a reader that keeps
   * its definition hands the same array to every request), then by the fields' JSON (a reader that builds
   * a fresh array per request, or a section's fields filtered per request, finds equal fields' rules).
   */
  readonly get: (fields: ReadonlyArray<FormField>) => CompiledRules
  /** How many distinct definitions are kept (by content). */
  readonly size: () => number
  readonly clear: () => void
}

export const makeRulesCache = (maxEntries = 1000): RulesCache => {
  const limit = Math.max(1, Math.floor(maxEntries))
  // Dropped with the array: a definition the reader forgets takes its entry along.
  let byArray = new WeakMap<ReadonlyArray<FormField>, CompiledRules>()
  // Least recently used dropped past `limit`: a Map iterates in insertion order.
  const byContent = new Map<string, CompiledRules>()
  return {
    get: (fields) => {
      const known = byArray.get(fields)
      if (known !== undefined) return known
      // Fields are plain JSON data (they come from JSON or a decoded row): equal JSON, equal rules.
      const content = JSON.stringify(fields)
      let rules = byContent.get(content)
      if (rules === undefined) {
        rules = compileRules(fields)
        if (byContent.size >= limit) {
          const oldest = byContent.keys().next()
          if (oldest.done !== true) byContent.delete(oldest.value)
        }
      } else {
        byContent.delete(content)
      }
      byContent.set(content, rules)
      byArray.set(fields, rules)
      return rules
    },
    size: () => byContent.size,
    clear: () => {
      byContent.clear()
      byArray = new WeakMap()
    }
  }
}
