/**
 * Giving a place up (CONTRACT §22), pure: whether a place may still be given up, and the submission's values
 * without the slot.
 */
import { copyValues, type Values } from "../forms/Values.js"

const hourMs = 3_600_000

/** The form's `cancel_until_hours`: an integer 0–720 on volunteer forms; absent: 0. */
export const defaultCancelUntilHours = 0

/**
 * A confirmed place until `cancelUntilHours` before the slot starts; a waiting one until the slot starts; nothing
 * once it has started.
 */
export const mayCancel = (
  place: { readonly status: "confirmed" | "waitlisted"; readonly starts_at: number },
  cancelUntilHours: number,
  now: number
): boolean => {
  if (now >= place.starts_at) return false
  return place.status === "waitlisted" || now < place.starts_at - cancelUntilHours * hourMs
}

/** `values` with `slotId` left out of every `time_slots` field (`slugs`); other values untouched. */
export const valuesWithoutSlot = (values: Values, slugs: ReadonlyArray<string>, slotId: string): Values => {
  const out = copyValues(values)
  for (const slug of slugs) {
    if (!Object.hasOwn(values, slug)) continue
    const value = values[slug]
    if (Array.isArray(value)) out[slug] = value.filter((id) => id !== slotId)
    else if (value === slotId) out[slug] = []
  }
  return out
}
