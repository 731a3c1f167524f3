/**
 * What the organiser's form lists as `missing_translations` (CONTRACT §19): every text of the form that a named
 * language other than the default lacks, at its path (`translations.nl.fields.email.label`), in the form's order.
 */
import { byPositionThenSlug, type FormField } from "../forms/FormField.js"
import type { FormSection } from "../forms/FormSchema.js"
import { compareStrings } from "../shared/compareStrings.js"
import { languagesOf, own, type Translations } from "./Translations.js"

export interface TranslatableForm {
  readonly languages?: ReadonlyArray<string> | undefined
  readonly translations?: Translations | undefined
  readonly sections: ReadonlyArray<FormSection>
  readonly fields: ReadonlyArray<FormField>
  /** The form's messages: a confirmation's subject and body are texts to translate. */
  readonly messages?: { readonly confirmation?: unknown } | undefined
}

export const missingTranslations = (form: TranslatableForm): ReadonlyArray<string> => {
  const sections = [...form.sections].sort((a, b) => a.position - b.position || compareStrings(a.id, b.id))
  const fields = [...form.fields].sort(byPositionThenSlug)
  return languagesOf(form).slice(1).flatMap((tag) => {
    const translation = own(form.translations, tag) ?? {}
    const at = `translations.${tag}`
    const missing: Array<string> = []
    if (translation.name === undefined) missing.push(`${at}.name`)
    for (const section of sections) {
      if (own(translation.sections, section.id)?.name === undefined) missing.push(`${at}.sections.${section.id}.name`)
    }
    for (const field of fields) {
      const texts = own(translation.fields, field.slug)
      if (texts?.label === undefined) missing.push(`${at}.fields.${field.slug}.label`)
      if (typeof field.help === "string" && field.help !== "" && texts?.help === undefined) {
        missing.push(`${at}.fields.${field.slug}.help`)
      }
      const regexMessage = field.validation_rules?.regex_message
      if (typeof regexMessage === "string" && regexMessage.trim() !== "" && texts?.regex_message === undefined) {
        missing.push(`${at}.fields.${field.slug}.regex_message`)
      }
      for (const option of field.options ?? []) {
        if (own(texts?.options, option.value) === undefined) missing.push(`${at}.fields.${field.slug}.options.${option.value}`)
      }
    }
    if (form.messages?.confirmation !== undefined) {
      const confirmation = translation.messages?.confirmation
      if (confirmation?.subject === undefined) missing.push(`${at}.messages.confirmation.subject`)
      if (confirmation?.body === undefined) missing.push(`${at}.messages.confirmation.body`)
    }
    return missing
  })
}
