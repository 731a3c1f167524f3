/**
 * A submit names every problem at once (CONTRACT §3): a body refused by its relaxed rules is answered with
 * its own errors beside the strict errors of the merged map on every field the body did not fail.
 */
import type { FieldError, FieldErrors } from "../rules/FieldErrors.js"

/** Per slug, in `slugs` order: the body's errors where it has some, else the merged map's; other keys after. */
export const everyProblem = (
  slugs: ReadonlyArray<string>,
  bodyErrors: FieldErrors,
  mergedErrors: FieldErrors | undefined
): FieldErrors => {
  const out = Object.create(null) as Record<string, ReadonlyArray<FieldError>>
  const has = (errors: FieldErrors | undefined, key: string) =>
    errors !== undefined && Object.hasOwn(errors, key) && (errors[key]?.length ?? 0) > 0
  for (const slug of slugs) {
    if (has(bodyErrors, slug)) out[slug] = bodyErrors[slug] ?? []
    else if (has(mergedErrors, slug)) out[slug] = mergedErrors?.[slug] ?? []
  }
  // Keys that are no field (body keys such as `values`) keep their place after the fields.
  for (const key of Object.keys(bodyErrors)) if (!Object.hasOwn(out, key)) out[key] = bodyErrors[key] ?? []
  return out
}
