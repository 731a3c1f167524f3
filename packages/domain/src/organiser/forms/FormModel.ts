/** Forms as the organiser authors them (CONTRACT §12): the definition, the form as answered, its list item. */
import { Schema, Struct } from "effect"
import { FormSchema, FormStatus } from "../../forms/FormSchema.js"
import type { CreatedKey } from "../../shared/paging.js"

/**
 * A checked definition: every default filled in, every part with its id (generated when omitted). Its members are
 * the stored form's (`FormSchema`), but for `event_id` in place of the event it names.
 */
export const FormDefinition = Schema.Struct({
  ...Struct.pick(FormSchema.fields, ["name", "type"]),
  event_id: Schema.NullOr(Schema.String),
  ...Struct.pick(FormSchema.fields, [
    "status",
    "opens_at",
    "closes_at",
    "tags",
    "sections",
    "fields",
    "messages",
    "languages",
    "translations",
    "cancel_until_hours"
  ])
})
export type FormDefinition = typeof FormDefinition.Type

/** A form as answered: its definition and the read-only members. */
export const AdminForm = Schema.Struct({
  ...FormDefinition.fields,
  id: Schema.String,
  organisation_id: Schema.String,
  revision: Schema.Number,
  public_token: Schema.NullOr(Schema.String),
  previous_public_token: Schema.NullOr(Schema.String),
  token_rotated_at: Schema.NullOr(Schema.Number),
  created_at: Schema.Number,
  updated_at: Schema.Number
})
export type AdminForm = typeof AdminForm.Type

/** A form's submissions counted by status. */
export const FormCounts = Schema.Struct({ drafts: Schema.Number, submitted: Schema.Number })
export type FormCounts = typeof FormCounts.Type

/** A list item: the form without its parts, with its submissions counted by status. */
export const AdminFormSummary = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  type: Schema.String,
  status: FormStatus,
  event_id: Schema.NullOr(Schema.String),
  revision: Schema.Number,
  opens_at: Schema.NullOr(Schema.Number),
  closes_at: Schema.NullOr(Schema.Number),
  counts: FormCounts,
  created_at: Schema.Number
})
export type AdminFormSummary = typeof AdminFormSummary.Type

/** The members a PATCH may change: absent means unchanged. */
export const FormPatch = FormDefinition.mapFields(Struct.pick(["name", "status", "opens_at", "closes_at", "tags"]))
  .mapFields(Struct.map(Schema.optionalKey))
export type FormPatch = typeof FormPatch.Type

/** What a write expects of the stored revision: any (`If-Match: *` or a PATCH without it) or this one. */
export const ExpectedRevision = Schema.Union([Schema.Number, Schema.Literal("any")])
export type ExpectedRevision = typeof ExpectedRevision.Type

export const formKeyOf = (form: { readonly created_at: number; readonly id: string }): CreatedKey => ({
  created_at: form.created_at,
  id: form.id
})
