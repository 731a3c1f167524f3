/** `If-Match` against a form's revision (CONTRACT §12): `*`, or a strong tag `"<revision>"`. */
import type { ExpectedRevision } from "./FormModel.js"

/** The ETag of a revision: a strong tag. */
export const etagOf = (revision: number): string => `"${revision}"`

/**
 * What a write under `header` expects of the stored revision, read as `current`: "any" for `*`, `current`
 * when one of the header's tags is its strong tag; undefined when none matches (another revision, a weak
 * or unquoted tag, garbage): a 412, never a 400.
 */
export const preconditionOf = (header: string, current: number): ExpectedRevision | undefined => {
  const tags = header.split(",").map((t) => t.trim())
  if (tags.includes("*")) return "any"
  return tags.includes(etagOf(current)) ? current : undefined
}
