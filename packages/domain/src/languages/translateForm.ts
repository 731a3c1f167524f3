/** A form's texts in one of its languages (CONTRACT §19): each text its translation, else the default language's. */
import type { FormField } from "../forms/FormField.js"
import type { FormSection } from "../forms/FormSchema.js"
import { languagesOf, own, type Translations } from "./Translations.js"

export interface TextsOfForm {
  readonly name: string
  readonly languages?: ReadonlyArray<string> | undefined
  readonly translations?: Translations | undefined
  readonly sections: ReadonlyArray<FormSection>
  readonly fields: ReadonlyArray<FormField>
}

/** The form with its name, section names, labels, help texts and option labels in `language`. */
export const translateForm = <F extends TextsOfForm>(form: F, language: string): F => {
  if (language === languagesOf(form)[0]) return form
  const translation = own(form.translations, language)
  if (translation === undefined) return form
  return {
    ...form,
    name: translation.name ?? form.name,
    sections: form.sections.map((section) => {
      const name = own(translation.sections, section.id)?.name
      return name === undefined ? section : { ...section, name }
    }),
    fields: form.fields.map((field) => {
      const texts = own(translation.fields, field.slug)
      if (texts === undefined) return field
      return {
        ...field,
        label: texts.label ?? field.label,
        ...(texts.help !== undefined && typeof field.help === "string" && field.help !== "" ? { help: texts.help } : {}),
        ...(texts.regex_message !== undefined && field.validation_rules !== null &&
            typeof field.validation_rules.regex_message === "string"
          ? { validation_rules: { ...field.validation_rules, regex_message: texts.regex_message } }
          : {}),
        options: field.options === null
          ? null
          : field.options.map((option) => {
            const label = own(texts.options, option.value)
            return label === undefined ? option : { ...option, label }
          })
      }
    })
  }
}
