/**
 * What of a form's sections its rules depend on: the conditions (CONTRACT §18) of those that have one, by id;
 * "" when none has (the common case, at the cost of one pass over the sections).
 */
const sectionKeyOf = (sections: ReadonlyArray<FormSection>): string => {
  let key = ""
  for (const section of sections) {
    if (section.visible_if === undefined || section.visible_if === null) continue
    key += JSON.stringify([section.id, section.visible_if])
  }
  return key
}

/** Compiled rules kept per field definition they were compiled from, so a request never recompiles and a changed definition never meets old rules. */
import type { FormField } from "../forms/FormField.js"
import type { FormSection } from "../forms/FormSchema.js"
import { compileRules } from "./compileRules.js"
import type { CompiledRules } from "./Validator.js"

export interface RulesCache {
  /**
   * The rules compiled from `fields`. Keyed by what they are compiled from, never by a schema revision
   * (a field edited in place keeps its schema's revision): first by the array object (a reader that keeps
   * its definition hands the same array to every request), then by the fields' JSON (a reader that builds
   * a fresh array per request, or a section's fields filtered per request, finds equal fields' rules).
   */
  readonly get: (fields: ReadonlyArray<FormField>, sections?: ReadonlyArray<FormSection>) => CompiledRules
  /** How many distinct definitions are kept (by content). */
  readonly size: () => number
  readonly clear: () => void
}

export const makeRulesCache = (maxEntries = 1000): RulesCache => {
  const limit = Math.max(1, Math.floor(maxEntries))
  // Dropped with the array: a definition the reader forgets takes its entry along.
  let byArray = new WeakMap<ReadonlyArray<FormField>, { readonly sections: string; readonly rules: CompiledRules }>()
  // Least recently used dropped past `limit`: a Map iterates in insertion order.
  const byContent = new Map<string, CompiledRules>()
  return {
    get: (fields, sections = []) => {
      const sectionKey = sectionKeyOf(sections)
      const known = byArray.get(fields)
      if (known !== undefined && known.sections === sectionKey) return known.rules
      // Fields are plain JSON data (they come from JSON or a decoded row): equal JSON, equal rules.
      const content = sectionKey === "" ? JSON.stringify(fields) : `${JSON.stringify(fields)}\u0000${sectionKey}`
      let rules = byContent.get(content)
      if (rules === undefined) {
        rules = compileRules(fields, sections)
        if (byContent.size >= limit) {
          const oldest = byContent.keys().next()
          if (oldest.done !== true) byContent.delete(oldest.value)
        }
      } else {
        byContent.delete(content)
      }
      byContent.set(content, rules)
      byArray.set(fields, { sections: sectionKey, rules })
      return rules
    },
    size: () => byContent.size,
    clear: () => {
      byContent.clear()
      byArray = new WeakMap()
    }
  }
}
