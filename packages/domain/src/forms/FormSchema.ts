/** A form schema as the use cases see it: its event, sections, fields, status and tokens. */
import { Schema } from "effect"
import { FormMessages } from "../messages/FormMessages.js"
import { FormField } from "./FormField.js"
import { Translations } from "../languages/Translations.js"

export const FormStatus = Schema.Literals(["draft", "published", "archived"])
export type FormStatus = typeof FormStatus.Type

export const EventRef = Schema.Struct({
  id: Schema.String,
  name: Schema.String
})
export type EventRef = typeof EventRef.Type

export const FormSection = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  position: Schema.Number,
  /** A condition in JSON Logic over the form's values (CONTRACT §18); absent or null: always shown. */
  visible_if: Schema.optionalKey(Schema.NullOr(Schema.Json))
})
export type FormSection = typeof FormSection.Type

export const FormSchema = Schema.Struct({
  id: Schema.String,
  organisation_id: Schema.String,
  /** 1 for a new form, +1 per change of its definition (CONTRACT §12); not moved by a token rotation. */
  revision: Schema.Number,
  event: Schema.NullOr(EventRef),
  name: Schema.String,
  type: Schema.String,
  status: FormStatus,
  public_token: Schema.NullOr(Schema.String),
  previous_public_token: Schema.NullOr(Schema.String),
  /** Epoch milliseconds of the last rotation, or null. */
  token_rotated_at: Schema.NullOr(Schema.Number),
  /** Epoch milliseconds, or null. */
  opens_at: Schema.NullOr(Schema.Number),
  closes_at: Schema.NullOr(Schema.Number),
  tags: Schema.Array(Schema.String),
  sections: Schema.Array(FormSection),
  /** Every field of the schema, in or out of a section. */
  fields: Schema.Array(FormField),
  /** The messages the form asks for (confirmation, notice, reminders); absent: none. */
  messages: Schema.optionalKey(FormMessages),
  /** BCP 47 tags, the default first (CONTRACT §19); absent: `["en"]`. */
  languages: Schema.optionalKey(Schema.Array(Schema.String)),
  /** The texts in the other languages; absent: none. */
  translations: Schema.optionalKey(Translations),
  /** Volunteer forms (CONTRACT §22): hours before a slot's start until which a confirmed place may be given up; absent: 0. */
  cancel_until_hours: Schema.optionalKey(Schema.Number)
})
export type FormSchema = typeof FormSchema.Type
