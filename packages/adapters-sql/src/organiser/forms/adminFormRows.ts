/** Forms as the organiser reads them (CONTRACT §12): the whole form in one row, and list items with counts. */
import { FormMessages } from "@forms/domain"
import { Schema } from "effect"
import { epochMs } from "../../sql/sqlValues.js"
import { definitionColumns, FieldRow, FormSectionRow, FormStatus, formTokenAndTimeFields } from "../../forms/FormSchemaRow.js"

export const AdminFormRow = Schema.Struct({
  id: Schema.String,
  organisation_id: Schema.String,
  revision: Schema.Number,
  name: Schema.String,
  type: Schema.String,
  status: FormStatus,
  event_id: Schema.NullOr(Schema.String),
  ...formTokenAndTimeFields,
  created_at: Schema.Number,
  updated_at: Schema.Number,
  sections: Schema.Array(FormSectionRow),
  fields: Schema.Array(FieldRow),
  messages: Schema.NullOr(FormMessages),
  cancel_until_hours: Schema.NullOr(Schema.Number)
})

/** `SELECT` of whole forms from `form_schemas s`; `s` may be used by a WHERE appended to it. */
export const selectAdminForms = `
  SELECT s.id, s.organisation_id, s.revision, s.name, s.type, s.status, s.event_id, s.public_token,
    s.previous_public_token, ${epochMs("s.token_rotated_at")} AS token_rotated_at, ${epochMs("s.opens_at")} AS opens_at,
    ${epochMs("s.closes_at")} AS closes_at, s.tags, s.languages, s.translations, ${epochMs("s.created_at")} AS created_at,
    ${epochMs("s.updated_at")} AS updated_at, s.messages, s.cancel_until_hours,
    ${definitionColumns}
  FROM form_schemas s`

export const AdminFormSummaryRow = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  type: Schema.String,
  status: FormStatus,
  event_id: Schema.NullOr(Schema.String),
  revision: Schema.Number,
  opens_at: Schema.NullOr(Schema.Number),
  closes_at: Schema.NullOr(Schema.Number),
  counts: Schema.Struct({ drafts: Schema.Number, submitted: Schema.Number }),
  created_at: Schema.Number
})

export const summaryColumns = `s.id, s.name, s.type, s.status, s.event_id, s.revision,
  ${epochMs("s.opens_at")} AS opens_at, ${epochMs("s.closes_at")} AS closes_at,
  (SELECT json_build_object('drafts', count(*) FILTER (WHERE status = 'draft'),
                            'submitted', count(*) FILTER (WHERE status = 'submitted'))
   FROM submissions WHERE schema_id = s.id) AS counts,
  ${epochMs("s.created_at")} AS created_at`
