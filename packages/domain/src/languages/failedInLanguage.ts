/** A validation failure with its messages in the language chosen for the answer (CONTRACT §19). */
import type { FieldErrors } from "../rules/FieldErrors.js"
import { ValidationFailed } from "../rules/errors.js"
import { chooseLanguage, type LanguageRequest } from "./chooseLanguage.js"
import { type LocalisableForm, localiseFieldErrors } from "./localiseFieldErrors.js"

export const failedInLanguage = (
  fields: FieldErrors,
  form: LocalisableForm,
  request: LanguageRequest | undefined
): ValidationFailed =>
  new ValidationFailed({ fields: localiseFieldErrors(fields, chooseLanguage(form, request ?? {}).language, form) })
