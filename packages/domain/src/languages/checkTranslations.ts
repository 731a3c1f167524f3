/**
 * The definition check of a form's languages and translations (CONTRACT §19): BCP 47 tags, each once, at least
 * one and at most 20; rule `translation` for a translation of a language the form does not name or of its default.
 */
import type { FieldError, RuleName } from "../rules/FieldErrors.js"
import { languagesOf, maxLanguages, type Translations } from "./Translations.js"

export interface TranslationProblem {
  readonly path: string
  readonly error: FieldError
}

/** A tag as a form names it: a primary subtag of 2–8 letters, subtags of 1–8 letters or digits, well-formed for Intl. */
const tagPattern = /^[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*$/
const maxTagLength = 64

export const isLanguageTag = (value: string): boolean => {
  if (value.length > maxTagLength || !tagPattern.test(value)) return false
  try {
    return Intl.getCanonicalLocales(value).length === 1
  } catch {
    return false
  }
}

export const checkTranslations = (form: {
  readonly languages?: ReadonlyArray<string> | undefined
  readonly translations?: Translations | undefined
}): ReadonlyArray<TranslationProblem> => {
  const problems: Array<TranslationProblem> = []
  const add = (path: string, rule: RuleName, message: string) => problems.push({ path, error: { rule, message } })
  if (form.languages !== undefined) {
    if (form.languages.length === 0) add("languages", "required", "At least one language, the form's default, is expected.")
    if (form.languages.length > maxLanguages) add("languages", "max", `At most ${maxLanguages} languages.`)
    const seen = new Set<string>()
    form.languages.forEach((tag, i) => {
      if (!isLanguageTag(tag)) add(`languages.${i}`, "invalid", "A BCP 47 language tag (en, nl, de-CH) is expected.")
      else if (seen.has(tag.toLowerCase())) add(`languages.${i}`, "unique", `The language ${JSON.stringify(tag)} is named more than once.`)
      seen.add(tag.toLowerCase())
    })
  }
  const languages = languagesOf(form)
  const [fallback] = languages
  for (const tag of Object.keys(form.translations ?? {})) {
    const path = `translations.${tag}`
    if (tag === fallback) add(path, "translation", `${tag} is the form's default language: its texts are the definition's own.`)
    else if (!languages.includes(tag)) add(path, "translation", `${JSON.stringify(tag)} is not one of the form's languages.`)
  }
  return problems
}
