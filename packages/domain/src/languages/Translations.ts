/**
 * A form's languages and its texts in the languages other than its default (CONTRACT §19): BCP 47 tags, the first
 * the default; translations keyed by tag, every member optional (a missing text falls back to the default's).
 */
import { Schema } from "effect"

/** A form without `languages` has this one language. */
export const defaultLanguages: ReadonlyArray<string> = ["en"]
/** At most this many languages per form. */
export const maxLanguages = 20

export const FieldTranslation = Schema.Struct({
  label: Schema.optionalKey(Schema.String),
  help: Schema.optionalKey(Schema.String),
  /** The `regex` rule's message of a field with a `regex_message` (CONTRACT §4). */
  regex_message: Schema.optionalKey(Schema.String),
  /** option value → label */
  options: Schema.optionalKey(Schema.Record(Schema.String, Schema.String))
})
export type FieldTranslation = typeof FieldTranslation.Type

export const MessageTranslation = Schema.Struct({
  subject: Schema.optionalKey(Schema.String),
  body: Schema.optionalKey(Schema.String)
})

export const FormTranslation = Schema.Struct({
  name: Schema.optionalKey(Schema.String),
  /** section id → its name */
  sections: Schema.optionalKey(Schema.Record(Schema.String, Schema.Struct({ name: Schema.optionalKey(Schema.String) }))),
  /** field slug → its texts */
  fields: Schema.optionalKey(Schema.Record(Schema.String, FieldTranslation)),
  messages: Schema.optionalKey(Schema.Struct({ confirmation: Schema.optionalKey(MessageTranslation) }))
})
export type FormTranslation = typeof FormTranslation.Type

/** language tag → the form's texts in it */
export const Translations = Schema.Record(Schema.String, FormTranslation)
export type Translations = typeof Translations.Type

/** The form's languages, the default first. */
export const languagesOf = (form: { readonly languages?: ReadonlyArray<string> | undefined }): ReadonlyArray<string> =>
  form.languages !== undefined && form.languages.length > 0 ? form.languages : defaultLanguages

/** Own members only: a translation key is data, never a prototype's member. */
export const own = <A>(record: Readonly<Record<string, A>> | undefined, key: string): A | undefined =>
  record !== undefined && Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined
