/** The type rules of CONTRACT §4 (`email` `url` `numeric` `boolean` `phone`; `date` is in dates.ts) on trimmed values. */
import { isBooleanString, isNumericString, numericPattern } from "../forms/valueForms.js"

export { isBooleanString, isNumericString, numericPattern }

export type TypeRule = "email" | "url" | "numeric" | "date" | "boolean" | "phone"

const typeRules: ReadonlySet<string> = new Set<TypeRule>(["email", "url", "numeric", "date", "boolean", "phone"])

/** The type rule of a field type; other types (text, select, …) get none. Case-sensitive. */
export const typeRuleOf = (fieldType: string): TypeRule | undefined =>
  typeRules.has(fieldType) ? (fieldType as TypeRule) : undefined

const surrogate = /[\ud800-\udfff]/

/** Code points of `s` (a lone surrogate counts as one). */
export const codePointLength = (s: string): number => {
  const n = s.length
  // the native scan is far faster than a loop; most strings hold no surrogate at all
  if (!surrogate.test(s)) return n
  let count = n
  for (let i = 0; i < n - 1; i++) {
    const c = s.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1)
      if (d >= 0xdc00 && d <= 0xdfff) {
        count--
        i++
      }
    }
  }
  return count
}

// Local part and domain labels are runs without whitespace, `@` or (in the domain) `.`:
// unambiguous, so the match is linear.
const emailPattern = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/

/** One `@`, a non-empty local part, a domain of dot-separated non-empty labels, no spaces, ≤ 254 code points. */
export const isEmail = (s: string): boolean =>
  emailPattern.test(s) && (s.length <= 254 || codePointLength(s) <= 254)

// Scheme, optional userinfo, host (a name or a bracketed IPv6 literal), optional port, then
// path/query/fragment; no whitespace or characters a URL may never hold raw.
const urlPattern =
  /^https?:\/\/(?:[^\s/?#@<>"{}|\\^`]*@)?(?:\[[0-9a-f:.]+\]|[^\s/?#@<>"{}|\\^`[\]:]+)(?::\d{0,5})?(?:[/?#][^\s<>"{}|\\^`]*)?$/i

/** An absolute `http` or `https` URL with a host. */
export const isUrl = (s: string): boolean => urlPattern.test(s)

/** An optional leading `+`, then digits, spaces, `-`, `.`, `(`, `)`, with 7 to 15 digits in all. */
export const isPhone = (s: string): boolean => {
  const n = s.length
  let digits = 0
  for (let i = s.charCodeAt(0) === 43 /* + */ ? 1 : 0; i < n; i++) {
    const c = s.charCodeAt(i)
    if (c >= 48 && c <= 57) digits++
    else if (c !== 32 && c !== 45 && c !== 46 && c !== 40 && c !== 41) return false
  }
  return digits >= 7 && digits <= 15
}


export const typeMessages: Readonly<Record<TypeRule, string>> = {
  email: "Must be a valid email address.",
  url: "Must be a valid http or https URL.",
  numeric: "Must be a number.",
  date: "Must be a valid date (YYYY-MM-DD, optionally with a time).",
  boolean: "Must be true or false.",
  phone: "Must be a valid phone number of 7 to 15 digits."
}
