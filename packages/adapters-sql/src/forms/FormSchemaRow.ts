/** How a form schema is selected (with its event, sections and fields) and decoded into the domain's `FormSchema`. */
import { Effect, Schema } from "effect"
import { FormMessages, type FormSchema, Translations, ValidationRules } from "@forms/domain"
import { decodeRows } from "../sql/decodeRows.js"
import { epochMs } from "../sql/sqlValues.js"

/** A section of a form as its row selects it; shared by the public reader and the organiser's (adminFormRows.ts). */
export const FormSectionRow = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  position: Schema.Number,
  visible_if: Schema.optionalKey(Schema.Json)
})

/** A field of a form as its row selects it, options with their tags. */
export const FieldRow = Schema.Struct({
  id: Schema.String,
  section_id: Schema.NullOr(Schema.String),
  slug: Schema.String,
  label: Schema.String,
  type: Schema.String,
  is_required: Schema.Boolean,
  options: Schema.NullOr(Schema.Array(Schema.Struct({
    value: Schema.String,
    label: Schema.String,
    tags: Schema.Array(Schema.String)
  }))),
  validation_rules: Schema.NullOr(ValidationRules),
  is_unique: Schema.Boolean,
  position: Schema.Number,
  maps_to: Schema.NullOr(Schema.String),
  visible_if: Schema.optionalKey(Schema.Json),
  help: Schema.optionalKey(Schema.String)
})

export const FormStatus = Schema.Literals(["draft", "published", "archived"])

/** A form's tokens, its opening times and its tags, as every read of a whole form selects them (after its event). */
export const formTokenAndTimeFields = {
  public_token: Schema.NullOr(Schema.String),
  previous_public_token: Schema.NullOr(Schema.String),
  token_rotated_at: Schema.NullOr(Schema.Number),
  opens_at: Schema.NullOr(Schema.Number),
  closes_at: Schema.NullOr(Schema.Number),
  tags: Schema.Array(Schema.String),
  /** Null on a form that never named them (`["en"]`, none). */
  languages: Schema.NullOr(Schema.Array(Schema.String)),
  translations: Schema.NullOr(Translations)
}

/** A row's null languages and translations left out, as the domain's forms have them. */
export const withLanguages = <R extends { readonly languages: ReadonlyArray<string> | null; readonly translations: Translations | null }>(
  row: R
): Omit<R, "languages" | "translations"> & { readonly languages?: ReadonlyArray<string>; readonly translations?: Translations } => {
  const { languages, translations, ...rest } = row
  return { ...rest, ...(languages === null ? {} : { languages }), ...(translations === null ? {} : { translations }) }
}

export const FormSchemaRow = Schema.Struct({
  id: Schema.String,
  organisation_id: Schema.String,
  revision: Schema.Number,
  event: Schema.NullOr(Schema.Struct({ id: Schema.String, name: Schema.String })),
  name: Schema.String,
  type: Schema.String,
  status: FormStatus,
  ...formTokenAndTimeFields,
  sections: Schema.Array(FormSectionRow),
  fields: Schema.Array(FieldRow),
  /** The form's `messages` column: null when it asks for none. */
  messages: Schema.NullOr(FormMessages),
  /** Null: the default, 0 (CONTRACT §22). */
  cancel_until_hours: Schema.NullOr(Schema.Number)
})

/** A row's `messages` column as the domain has it: the member left out when null. */
export const withMessages = <A extends { readonly messages: FormMessages | null }>(
  row: A
): Omit<A, "messages"> & { readonly messages?: FormMessages } => {
  const { messages, ...rest } = row
  return messages === null ? rest : { ...rest, messages }
}

const decodeSchemaRows = decodeRows(FormSchemaRow)

/** A row's null `cancel_until_hours` left out, as the domain's forms have it. */
export const withCancelUntil = <A extends { readonly cancel_until_hours: number | null }>(
  row: A
): Omit<A, "cancel_until_hours"> & { readonly cancel_until_hours?: number } => {
  const { cancel_until_hours, ...rest } = row
  return cancel_until_hours === null ? rest : { ...rest, cancel_until_hours }
}

/** Rows that do not decode are a bug of this adapter: they die. */
export const toFormSchemas = (rows: ReadonlyArray<unknown>): Effect.Effect<ReadonlyArray<FormSchema>> =>
  Effect.map(decodeSchemaRows(rows), (decoded) => decoded.map((row) => withCancelUntil(withMessages(withLanguages(row)))))

/** `{ name: column }` when the column holds a value, `{}` when it is null (the domain's parts leave such members out). */
const present = (name: string, column: string): string =>
  `CASE WHEN ${column} IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('${name}', ${column}) END`

/**
 * A form's sections (by position, then id) and fields (by position, then slug), in code-unit order (COLLATE
 * "C"), as two json columns of a `SELECT` over `form_schemas s`; the aliases `fs` and `f` are taken.
 */
export const definitionColumns = `COALESCE((SELECT json_agg(jsonb_build_object('id', fs.id, 'name', fs.name, 'position', fs.position)
                  || ${present("visible_if", "fs.visible_if")}
                ORDER BY fs.position, fs.id COLLATE "C")
              FROM form_sections fs WHERE fs.schema_id = s.id), '[]'::json) AS sections,
    COALESCE((SELECT json_agg(jsonb_build_object(
                'id', f.id, 'section_id', f.section_id, 'slug', f.slug, 'label', f.label, 'type', f.type,
                'is_required', f.is_required, 'options', f.options, 'validation_rules', f.validation_rules,
                'is_unique', f.is_unique, 'position', f.position, 'maps_to', f.maps_to)
                  || ${present("visible_if", "f.visible_if")} || ${present("help", "f.help")}
                ORDER BY f.position, f.slug COLLATE "C")
              FROM form_fields f WHERE f.schema_id = s.id), '[]'::json) AS fields`

/**
 * `SELECT … FROM form_schemas s … WHERE {where}`: one row per schema, its sections by position then id and
 * its fields by position then slug, in code-unit order (COLLATE "C"). The aliases `s`, `e`, `fs` and `f`
 * are taken; `where` (and an appended ORDER BY or LIMIT) may use `s`.
 */
export const selectFormSchemas = (where: string): string => `
  SELECT s.id, s.organisation_id, s.revision, s.name, s.type, s.status, s.public_token, s.previous_public_token,
    ${epochMs("s.token_rotated_at")} AS token_rotated_at, ${epochMs("s.opens_at")} AS opens_at,
    ${epochMs("s.closes_at")} AS closes_at, s.tags, s.messages, s.languages, s.translations, s.cancel_until_hours,
    CASE WHEN e.id IS NULL THEN NULL ELSE json_build_object('id', e.id, 'name', e.name) END AS event,
    ${definitionColumns}
  FROM form_schemas s LEFT JOIN events e ON e.id = s.event_id
  WHERE ${where}`
