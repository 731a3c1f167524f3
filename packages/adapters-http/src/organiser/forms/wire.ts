/** Forms on the organiser's wire: the definition sent, the form answered, the list item, a token rotation. */
import { Schema } from "effect"
import { type AdminForm, type AdminFormSummary, languagesOf, missingTranslations } from "@forms/domain"
import { FieldType, FormType } from "@forms/domain/internal"
import { StoredFieldType, StoredFormType } from "../../forms/wire.js"
import { LanguagesWire, TranslationsWire } from "../../forms/languagesWire.js"

import { envelopeOf, iso, isoOrNull, listOf } from "../../http/wireShapes.js"
import { ConditionWire } from "../../forms/wire.js"
import { Bound, CancelUntilHours, Count, FormPosition, HoursBefore } from "../../http/wireNumbers.js"
const Status = Schema.Literals(["draft", "published", "archived"])
const Rules = Schema.NullOr(Schema.Struct({
  min: Schema.optional(Bound),
  max: Schema.optional(Bound),
  regex: Schema.optional(Schema.String),
  regex_message: Schema.optional(Schema.String.annotate({
    description: "Shown instead of the default message when `regex` fails; at most 200 characters."
  }))
}))

const OptionWire = Schema.Struct({ value: Schema.String, label: Schema.String, tags: Schema.Array(Schema.String) })
const SectionWire = Schema.Struct({ id: Schema.String, name: Schema.String, position: FormPosition, visible_if: ConditionWire })
const FieldWire = Schema.Struct({
  id: Schema.String,
  section_id: Schema.NullOr(Schema.String),
  slug: Schema.String,
  label: Schema.String,
  type: StoredFieldType,
  is_required: Schema.Boolean,
  options: Schema.NullOr(Schema.Array(OptionWire)),
  validation_rules: Rules,
  is_unique: Schema.Boolean,
  position: FormPosition,
  maps_to: Schema.NullOr(Schema.String),
  visible_if: ConditionWire,
  help: Schema.NullOr(Schema.String)
})

/** A form's `messages`: a confirmation with placeholders, notices, reminders. */
const FormMessagesWire = Schema.Struct({
  confirmation: Schema.optionalKey(Schema.Struct({ to_field: Schema.String, subject: Schema.String, body: Schema.String })),
  notify: Schema.optionalKey(Schema.Struct({ to: Schema.Array(Schema.String) })),
  reminders: Schema.optionalKey(Schema.Array(Schema.Struct({ hours_before: HoursBefore })))
}).annotate({ identifier: "FormMessages" })

/** The body of POST and PUT (the domain reads it member by member; this is its documentation). */
export const FormDefinitionBody = Schema.Struct({
  name: Schema.String,
  type: FormType,
  event_id: Schema.NullOr(Schema.String),
  status: Schema.optionalKey(Status),
  opens_at: Schema.optionalKey(Schema.NullOr(Schema.String)),
  closes_at: Schema.optionalKey(Schema.NullOr(Schema.String)),
  tags: Schema.optionalKey(Schema.Array(Schema.String)),
  sections: Schema.optionalKey(Schema.Array(Schema.Struct({
    id: Schema.optionalKey(Schema.String),
    name: Schema.String,
    position: Schema.optionalKey(FormPosition),
    visible_if: Schema.optionalKey(ConditionWire)
  }))),
  fields: Schema.optionalKey(Schema.Array(Schema.Struct({
    id: Schema.optionalKey(Schema.String),
    section_id: Schema.optionalKey(Schema.NullOr(Schema.String)),
    slug: Schema.String,
    label: Schema.String,
    type: FieldType,
    is_required: Schema.optionalKey(Schema.Boolean),
    options: Schema.optionalKey(Schema.NullOr(Schema.Array(Schema.Union([
      Schema.String,
      Schema.Struct({ value: Schema.String, label: Schema.optionalKey(Schema.String), tags: Schema.optionalKey(Schema.Array(Schema.String)) })
    ])))),
    validation_rules: Schema.optionalKey(Rules),
    is_unique: Schema.optionalKey(Schema.Boolean),
    position: Schema.optionalKey(FormPosition),
    maps_to: Schema.optionalKey(Schema.NullOr(Schema.String)),
    visible_if: Schema.optionalKey(ConditionWire),
    help: Schema.optionalKey(Schema.NullOr(Schema.String))
  }))),
  /** The messages the form asks for (confirmation, notify, reminders); null or absent: none. */
  messages: Schema.optionalKey(Schema.NullOr(FormMessagesWire)),
  cancel_until_hours: Schema.optionalKey(Schema.NullOr(CancelUntilHours).annotate({
    description: "Volunteer forms: hours (0–720) before a slot's start until which a volunteer may give a confirmed place up; null or absent: 0."
  })),
  languages: Schema.optionalKey(LanguagesWire),
  translations: Schema.optionalKey(TranslationsWire)
}).annotate({ identifier: "AdminFormDefinition" })

export const FormPatchBody = Schema.Struct({
  name: Schema.optionalKey(Schema.String),
  status: Schema.optionalKey(Status),
  opens_at: Schema.optionalKey(Schema.NullOr(Schema.String)),
  closes_at: Schema.optionalKey(Schema.NullOr(Schema.String)),
  tags: Schema.optionalKey(Schema.Array(Schema.String))
}).annotate({ identifier: "AdminFormPatch" })

export const AdminFormWire = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  type: StoredFormType,
  event_id: Schema.NullOr(Schema.String),
  status: Status,
  opens_at: Schema.NullOr(Schema.String),
  closes_at: Schema.NullOr(Schema.String),
  tags: Schema.Array(Schema.String),
  sections: Schema.Array(SectionWire),
  fields: Schema.Array(FieldWire),
  /** Present when the form asks for messages. */
  messages: Schema.optionalKey(FormMessagesWire),
  /** Present when a volunteer form sets it. */
  cancel_until_hours: Schema.optionalKey(CancelUntilHours),
  languages: LanguagesWire,
  translations: TranslationsWire,
  missing_translations: Schema.Array(Schema.String).annotate({
    description: "The texts a named language other than the default lacks, at their paths " +
      "(`translations.nl.fields.email.label`): the page shows the default language's text for each."
  }),
  revision: Count,
  public_token: Schema.NullOr(Schema.String),
  previous_public_token: Schema.NullOr(Schema.String),
  token_rotated_at: Schema.NullOr(Schema.String),
  public_url: Schema.NullOr(Schema.String),
  page_url: Schema.NullOr(Schema.String),
  created_at: Schema.String,
  updated_at: Schema.String
}).annotate({ identifier: "AdminForm" })
export const AdminFormEnvelope = envelopeOf(AdminFormWire, "AdminFormEnvelope")

export const AdminFormItemWire = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  type: StoredFormType,
  status: Status,
  event_id: Schema.NullOr(Schema.String),
  revision: Count,
  opens_at: Schema.NullOr(Schema.String),
  closes_at: Schema.NullOr(Schema.String),
  counts: Schema.Struct({ drafts: Count, submitted: Count })
}).annotate({ identifier: "AdminFormItem" })
export const AdminFormList = listOf(AdminFormItemWire, "AdminFormList")

export const TokenRotation = Schema.Struct({
  public_token: Schema.NullOr(Schema.String),
  previous_public_token: Schema.NullOr(Schema.String),
  token_rotated_at: Schema.NullOr(Schema.String),
  public_url: Schema.NullOr(Schema.String),
  page_url: Schema.NullOr(Schema.String)
}).annotate({ identifier: "AdminTokenRotation" })
export const TokenRotationEnvelope = envelopeOf(TokenRotation, "AdminTokenRotationEnvelope")

const urls = (base: string, token: string | null) => ({
  public_url: token === null ? null : `${base}/public/forms/${token}`,
  page_url: token === null ? null : `${base}/f/${token}`
})

export const toAdminFormWire = (form: AdminForm, base: string): typeof AdminFormWire.Type => ({
  id: form.id,
  name: form.name,
  type: form.type,
  event_id: form.event_id,
  status: form.status,
  opens_at: isoOrNull(form.opens_at),
  closes_at: isoOrNull(form.closes_at),
  tags: form.tags,
  sections: form.sections.map((s) => ({ id: s.id, name: s.name, position: s.position, visible_if: s.visible_if ?? null })),
  fields: form.fields.map((f) => ({ ...f, visible_if: f.visible_if ?? null, help: f.help ?? null })),
  ...(form.messages === undefined ? {} : { messages: form.messages }),
  ...(form.cancel_until_hours === undefined ? {} : { cancel_until_hours: form.cancel_until_hours }),
  languages: languagesOf(form),
  translations: form.translations ?? {},
  missing_translations: missingTranslations(form),
  revision: form.revision,
  public_token: form.public_token,
  previous_public_token: form.previous_public_token,
  token_rotated_at: isoOrNull(form.token_rotated_at),
  ...urls(base, form.public_token),
  created_at: iso(form.created_at),
  updated_at: iso(form.updated_at)
})

export const toAdminFormItemWire = (form: AdminFormSummary): typeof AdminFormItemWire.Type => ({
  id: form.id,
  name: form.name,
  type: form.type,
  status: form.status,
  event_id: form.event_id,
  revision: form.revision,
  opens_at: isoOrNull(form.opens_at),
  closes_at: isoOrNull(form.closes_at),
  counts: form.counts
})

export const toTokenRotationWire = (form: AdminForm, base: string): typeof TokenRotation.Type => ({
  public_token: form.public_token,
  previous_public_token: form.previous_public_token,
  token_rotated_at: isoOrNull(form.token_rotated_at),
  ...urls(base, form.public_token)
})
