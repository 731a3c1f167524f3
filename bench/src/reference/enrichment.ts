/**
 * The two handlers of `submission.submitted` (CONTRACT §6) as pure functions of the form and the values,
 * as ours computes them (packages/domain/src/events/TagSync.ts, IdentityMatch.ts): the submission's tags
 * and the contact key.
 */

export interface EnrichmentField {
  readonly slug: string
  readonly type: string
  readonly position: number
  readonly options: ReadonlyArray<string | { readonly value: string; readonly tags?: ReadonlyArray<string> }> | null
}

export interface EnrichmentForm {
  readonly tags: ReadonlyArray<string>
  readonly fields: ReadonlyArray<EnrichmentField>
}

const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

const asOptionValue = (value: unknown): string | null =>
  typeof value === "string" ? value.trim() : typeof value === "number" ? String(value) : null

/** The schema's tags plus the tags of every chosen option: a set sorted by code unit. */
export const submissionTags = (form: EnrichmentForm, values: Readonly<Record<string, unknown>>): Array<string> => {
  const tags = new Set<string>(form.tags)
  for (const field of form.fields) {
    if (field.options === null || !Object.hasOwn(values, field.slug)) continue
    const value = values[field.slug]
    const chosen = new Set((Array.isArray(value) ? value : [value]).map(asOptionValue).filter((v) => v !== null && v !== ""))
    for (const option of field.options) {
      if (typeof option !== "string" && chosen.has(option.value)) for (const tag of option.tags ?? []) tags.add(tag)
    }
  }
  return [...tags].sort(compareStrings)
}

const text = (values: Readonly<Record<string, unknown>>, slug: string): string | null => {
  const value = Object.hasOwn(values, slug) ? values[slug] : undefined
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null
}

/** The first email field (by position, then slug) with a value, lower-cased; else the first phone's digits; else null. */
export const identityKey = (form: EnrichmentForm, values: Readonly<Record<string, unknown>>): string | null => {
  const fields = [...form.fields].sort((a, b) => a.position - b.position || compareStrings(a.slug, b.slug))
  for (const field of fields) {
    const email = field.type === "email" ? text(values, field.slug) : null
    if (email !== null) return email.toLowerCase()
  }
  for (const field of fields) {
    const digits = field.type === "phone" ? (text(values, field.slug) ?? "").replace(/\D/g, "") : ""
    if (digits !== "") return digits
  }
  return null
}
