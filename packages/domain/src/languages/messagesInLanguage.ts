/**
 * The messages a submit causes, in the submission's language (CONTRACT §19, §20): the confirmation from the form's
 * texts in that language (its subject and body from `translations.<tag>.messages.confirmation`, labels and option
 * labels in `{{answers}}` and the placeholders, the form's name), each missing text in the default language's. The
 * organiser's notices stay in the form's default language.
 */
import type { FormSchema } from "../forms/FormSchema.js"
import type { Values } from "../forms/Values.js"
import { composeSubmitMessages } from "../messages/composeMessages.js"
import type { NewMessage } from "../messages/Message.js"
import { translateForm } from "./translateForm.js"
import { languagesOf, own } from "./Translations.js"

/** The form with its texts, the confirmation's among them, in `language`. */
export const formInLanguage = (schema: FormSchema, language: string): FormSchema => {
  if (language === languagesOf(schema)[0]) return schema
  const translated = translateForm(schema, language)
  const confirmation = schema.messages?.confirmation
  const texts = own(schema.translations, language)?.messages?.confirmation
  if (confirmation === undefined || texts === undefined || schema.messages === undefined) return translated
  return {
    ...translated,
    messages: {
      ...schema.messages,
      confirmation: { ...confirmation, subject: texts.subject ?? confirmation.subject, body: texts.body ?? confirmation.body }
    }
  }
}

export const composeMessagesInLanguage = (
  schema: FormSchema,
  values: Values,
  submissionId: string,
  sending: boolean,
  language: string
): ReadonlyArray<NewMessage> => {
  const inDefault = composeSubmitMessages(schema, values, submissionId, sending)
  if (language === languagesOf(schema)[0] || !inDefault.some((message) => message.kind === "confirmation")) return inDefault
  const confirmations = composeSubmitMessages(formInLanguage(schema, language), values, submissionId, sending)
    .filter((message) => message.kind === "confirmation")
  return [...confirmations, ...inDefault.filter((message) => message.kind !== "confirmation")]
}
