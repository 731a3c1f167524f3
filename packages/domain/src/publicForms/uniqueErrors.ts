/** Adds the `unique` rule's errors (found through the UniqueValues port) to a validator's errors. */
import { type FieldError, type FieldErrors, uniqueMessage } from "../rules/FieldErrors.js"

/** undefined when there is no error at all; `unique` comes last in its field, as the rule order says. */
export const withUniqueErrors = (
  errors: FieldErrors | undefined,
  takenSlugs: ReadonlyArray<string>
): FieldErrors | undefined => {
  if (takenSlugs.length === 0) return errors
  const out = Object.create(null) as Record<string, ReadonlyArray<FieldError>>
  if (errors !== undefined) for (const slug of Object.keys(errors)) out[slug] = errors[slug] ?? []
  for (const slug of takenSlugs) {
    const existing = out[slug] ?? []
    if (existing.some((error) => error.rule === "unique")) continue
    out[slug] = [...existing, { rule: "unique", message: uniqueMessage }]
  }
  return out
}
