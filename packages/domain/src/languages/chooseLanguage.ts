/**
 * Choosing the language of an answer (CONTRACT §19): the `lang` parameter when it names one of the form's
 * languages (case-insensitive); else the `Accept-Language` ranges one at a time by q-value (ties in header order,
 * `q=0` ignored, `*` the default), each matching a language equal to it, else the first language in the form's
 * order of which it is a prefix or that is a prefix of it at a `-` boundary; else the default.
 *
 * The header is read here rather than by `negotiator` or `@formatjs/intl-localematcher`: both pick languages
 * by their own rules (negotiator prefers a more specific range over a higher q-value and matches prefixes at the
 * primary subtag only; the lookup algorithm never matches `de` to `de-CH`), which are not these.
 */
import { languagesOf } from "./Translations.js"

export interface LanguageRange {
  /** The range as sent, or `*`. */
  readonly range: string
  /** 0 to 1. */
  readonly q: number
}

// RFC 9110 §12.5.4: language-range (RFC 4647 basic range) [ weight ]; a q-value has at most three decimals.
const rangePattern = /^(\*|[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*)$/
const weightPattern = /^[qQ]=(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/
/** A header longer than this is not read (no browser sends one; its work stays bounded). */
const maxHeaderLength = 4096

/**
 * The ranges of an `Accept-Language` header with q above 0, highest q first, ties in header order. A malformed
 * element is skipped; a malformed header gives what it holds that reads well (possibly nothing).
 */
export const parseAcceptLanguage = (header: string | undefined): ReadonlyArray<LanguageRange> => {
  if (header === undefined || header.length > maxHeaderLength) return []
  const ranges: Array<LanguageRange & { readonly at: number }> = []
  header.split(",").forEach((element, at) => {
    const [tag, ...params] = element.split(";").map((part) => part.trim())
    if (tag === undefined || !rangePattern.test(tag)) return
    let q = 1
    for (const param of params) {
      const weight = weightPattern.exec(param)
      if (weight === null) return
      q = Number(weight[1])
    }
    if (q > 0) ranges.push({ range: tag, q, at })
  })
  return ranges.sort((a, b) => b.q - a.q || a.at - b.at).map(({ q, range }) => ({ range, q }))
}

/** `a` is `b` or starts it at a `-` boundary (both lower case). */
const prefixAtBoundary = (a: string, b: string): boolean => b.startsWith(a) && (b.length === a.length || b[a.length] === "-")

/** The language one range picks among the form's languages, or undefined. */
export const matchRange = (range: string, languages: ReadonlyArray<string>): string | undefined => {
  if (range === "*") return languages[0]
  const wanted = range.toLowerCase()
  const exact = languages.find((language) => language.toLowerCase() === wanted)
  if (exact !== undefined) return exact
  return languages.find((language) => {
    const lower = language.toLowerCase()
    return prefixAtBoundary(lower, wanted) || prefixAtBoundary(wanted, lower)
  })
}

export interface LanguageChoice {
  /** The chosen language, one of the form's. */
  readonly language: string
  /** True when `lang` or a range other than `*` picked it: a submission records it (§19). */
  readonly explicit: boolean
}

/** What a request says about its language. */
export interface LanguageRequest {
  /** The `lang` query parameter, when sent once. */
  readonly lang?: string | undefined
  readonly acceptLanguage?: string | undefined
}

/** The language of an answer for this form and request. */
export const chooseLanguage = (
  form: { readonly languages?: ReadonlyArray<string> | undefined },
  request: LanguageRequest
): LanguageChoice => {
  const languages = languagesOf(form)
  const fallback = languages[0] ?? "en"
  if (request.lang !== undefined) {
    const wanted = request.lang.toLowerCase()
    const named = languages.find((language) => language.toLowerCase() === wanted)
    if (named !== undefined) return { language: named, explicit: true }
  }
  for (const { range } of parseAcceptLanguage(request.acceptLanguage)) {
    const match = matchRange(range, languages)
    if (match !== undefined) return { language: match, explicit: range !== "*" }
  }
  return { language: fallback, explicit: false }
}
