/**
 * Field errors in the language chosen for an answer (CONTRACT §19): each message of the service in that language's
 * catalogue (by primary subtag; English for others), an organiser's `regex_message` in its translation (else the
 * default language's text). Rules and the order of errors never change.
 */
import type { FormField } from "../forms/FormField.js"
import type { FieldError, FieldErrors } from "../rules/FieldErrors.js"
import { ruleCatalogues, serviceLanguageOf } from "./texts/catalogue.js"
import { readEnglish } from "./texts/readEnglish.js"
import { languagesOf, own, type Translations } from "./Translations.js"

export interface LocalisableForm {
  readonly languages?: ReadonlyArray<string> | undefined
  readonly translations?: Translations | undefined
  readonly fields: ReadonlyArray<Pick<FormField, "slug" | "validation_rules">>
}

/** The field's own `regex_message`, when it has one. */
const ownRegexMessage = (field: Pick<FormField, "validation_rules"> | undefined): string | undefined => {
  const message = field?.validation_rules?.regex_message
  return typeof message === "string" && message.trim() !== "" ? message : undefined
}

export const localiseFieldErrors = (errors: FieldErrors, language: string, form: LocalisableForm): FieldErrors => {
  const texts = ruleCatalogues[serviceLanguageOf(language)]
  const translation = language === languagesOf(form)[0] ? undefined : own(form.translations, language)
  // English words and no translation to apply: the errors as the rules wrote them.
  if (texts === ruleCatalogues.en && translation === undefined) return errors
  const fields = new Map(form.fields.map((field) => [field.slug, field]))
  const out = Object.create(null) as Record<string, ReadonlyArray<FieldError>>
  for (const slug of Object.keys(errors)) {
    const field = fields.get(slug)
    const custom = ownRegexMessage(field)
    out[slug] = (errors[slug] ?? []).map((error) => {
      if (error.rule === "regex" && custom !== undefined && error.message === custom) {
        const translated = own(translation?.fields, slug)?.regex_message
        return translated === undefined ? error : { rule: error.rule, message: translated }
      }
      const read = readEnglish(error.message)
      return read === undefined ? error : { rule: error.rule, message: read(texts) }
    })
  }
  return out
}
