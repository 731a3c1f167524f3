/**
 * A `time_slots` value as the compiled validator reads it (CONTRACT §15): its shape rule here, and what it hands on
 * for the shifts feature to check against the slots (`shifts/slotChoices.ts`).
 */

/** A `time_slots` value that passed its shape rule: the ids chosen, each once, with the field's count bounds. */
export interface SlotChoice {
  readonly slug: string
  readonly ids: ReadonlyArray<string>
  /** -Infinity when there is no `min`. */
  readonly min: number
  /** +Infinity when there is no `max`. */
  readonly max: number
}

export const slotsInvalidMessage = "Must be a time slot id or a list of time slot ids, each given once."

/**
 * The ids of a `time_slots` value (a single string is one id), trimmed; undefined when the value is not a
 * string or an array of strings, or names an id twice (`invalid`). Empty values are the caller's (`required`).
 */
export const slotIdsOf = (value: unknown): ReadonlyArray<string> | undefined => {
  if (typeof value === "string") return [value.trim()]
  if (!Array.isArray(value)) return undefined
  const ids: Array<string> = []
  const seen = new Set<string>()
  for (const item of value) {
    if (typeof item !== "string") return undefined
    const id = item.trim()
    if (id.length === 0 || seen.has(id)) return undefined
    seen.add(id)
    ids.push(id)
  }
  return ids
}
