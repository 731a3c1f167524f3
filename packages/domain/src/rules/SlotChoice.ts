/** What the compiled validator hands on for a `time_slots` field (CONTRACT §15); the shifts feature checks it. */

/** A `time_slots` value that passed its shape rule: the ids chosen, each once, with the field's count bounds. */
export interface SlotChoice {
  readonly slug: string
  readonly ids: ReadonlyArray<string>
  /** -Infinity when there is no `min`. */
  readonly min: number
  /** +Infinity when there is no `max`. */
  readonly max: number
}
