/**
 * The public forms on the wire: the form (sections with their fields, loose fields, no internals), the
 * submission (snake_case, ISO 8601 UTC instants), the bodies of create, save and submit, the lists of time
 * slots and registration sections.
 */
import { Schema } from "effect"
import { defaultSizeLimits, FilesBySlug, type FormView, languagesOf, type RegistrationSection, type Submission, translateForm } from "@forms/domain"
import { ConditionWire, FieldWire, StoredFormType, toFieldWire, toValuesWire, ValuesMap, ValuesWire } from "../forms/wire.js"
import { envelopeOf, iso, isoOrNull } from "../http/wireShapes.js"
import { TimeSlotWire } from "../shifts/wire.js"
import { Count, FormPosition, Remaining, WholePosition } from "../http/wireNumbers.js"

export const PlaceWire = Schema.Struct({
  slot_id: Schema.String,
  status: Schema.Literals(["confirmed", "waitlisted", "expired"]).annotate({
    description: "A waiting place of a slot that has started is expired."
  }),
  position: Schema.NullOr(Remaining).annotate({ description: "The current rank on the waitlist, from 1; null otherwise." })
}).annotate({ identifier: "Place" })

export const SubmissionWire = Schema.Struct({
  id: Schema.String,
  status: Schema.Literals(["draft", "submitted"]),
  idempotency_key: Schema.String,
  auto_save_count: Count,
  event_id: Schema.NullOr(Schema.String),
  values: ValuesWire,
  created_at: Schema.String,
  updated_at: Schema.String,
  submitted_at: Schema.NullOr(Schema.String),
  language: Schema.String.annotate({
    description: "The language chosen on the create, replaced by each later save or submit that named one explicitly " +
      "(`lang`, or an `Accept-Language` range other than `*` matching one of the form's languages)."
  }),
  places: Schema.optionalKey(Schema.Array(PlaceWire).annotate({
    description: "On a form with a time_slots field: the submission's places (`[]` for a draft)."
  })),
  manage_url: Schema.optionalKey(Schema.String.annotate({
    description: "On the submit answer of a form with a time_slots field: `{PUBLIC_BASE_URL}/m/{manage_token}`, the " +
      "volunteer's page for their places (shown once)."
  })),
  files: Schema.optionalKey(FilesBySlug.annotate({
    description: "On a form with a file field: by field slug, the uploads a submitted submission's values reference, " +
      "or every stored upload of a draft, each `{ id, name, size, content_type, sha256 }`."
  }))
}).annotate({ identifier: "Submission" })
export type SubmissionWire = typeof SubmissionWire.Type

export const toSubmissionWire = (submission: Submission): SubmissionWire => ({
  id: submission.id,
  status: submission.status,
  idempotency_key: submission.idempotency_key,
  auto_save_count: submission.auto_save_count,
  event_id: submission.event_id,
  values: toValuesWire(submission.values),
  created_at: iso(submission.created_at),
  updated_at: iso(submission.updated_at),
  submitted_at: isoOrNull(submission.submitted_at),
  language: submission.language,
  ...(submission.places === undefined ? {} : { places: submission.places.map((p) => ({ ...p })) }),
  ...(submission.files === undefined ? {} : { files: submission.files })
})

// Two classes of one shape, so that the status (201 new, 200 replay) follows the class.
export class DraftCreated extends Schema.Class<DraftCreated>("DraftCreated")({ data: SubmissionWire }, {
  httpApiStatus: 201,
  description: "A new draft."
}) {}

export class DraftExisting extends Schema.Class<DraftExisting>("DraftExisting")({ data: SubmissionWire }, {
  description: "The draft or submission already stored under this idempotency key, in its stored state."
}) {}

export const SubmissionEnvelope = envelopeOf(SubmissionWire, "SubmissionEnvelope")

/** The answer to a create: a new draft (201), or the one already stored under its idempotency key (200). */
export const draftAnswer = (created: boolean, submission: Submission): DraftCreated | DraftExisting => {
  const data = toSubmissionWire(submission)
  return created ? new DraftCreated({ data }) : new DraftExisting({ data })
}

/**
 * The idempotency key: 16 to 255 printable ASCII characters without spaces. The one definition:
 * `decodeCreateBody` tests keys with it and `CreateDraftBody` documents it (the `u` flag lets Schema export it
 * to JSON Schema; it matches the same strings without it).
 */
export const IdempotencyKeyPattern = /^[\x21-\x7E]{16,255}$/u
export const idempotencyKeyRule = "Must be 16 to 255 printable ASCII characters without spaces."

const { maxArrayItems, maxStringLength, maxValuesKeys } = defaultSizeLimits
/** The size limits are settings of the server, so they are told here (with their defaults), not fixed in the schema. */
const BodyValues = ValuesMap.annotate({
  description: `A map from field slug to value. Slugs that are not fields of the form are ignored. At most ` +
    `MAX_VALUES_KEYS keys (default ${maxValuesKeys}), strings of at most MAX_STRING_LENGTH characters ` +
    `(default ${maxStringLength}) and arrays of at most MAX_ARRAY_ITEMS items (default ${maxArrayItems}); ` +
    `no NUL characters or unpaired surrogates in strings.`
})

/** Keys a body may carry besides its own: the server ignores them, so the documented bodies are open. */
const OtherKeys = [Schema.Record(Schema.String, Schema.Json.annotate({ description: "Ignored." }))] as const

/**
 * Bodies as documented for OpenAPI and the typed client. The server reads them itself (`body/requestBodies.ts`,
 * see README); `test/requestBodies.test.ts` holds the two to one table of accepted and refused bodies.
 */
export const CreateDraftBody = Schema.StructWithRest(
  Schema.Struct({
    idempotency_key: Schema.String.check(Schema.isPattern(IdempotencyKeyPattern)).annotate({
      description: `${idempotencyKeyRule} A random UUID is the expected choice.`
    }),
    values: Schema.optionalKey(BodyValues)
  }),
  OtherKeys
).annotate({ identifier: "CreateDraftBody" })

export const ValuesBody = Schema.StructWithRest(Schema.Struct({ values: Schema.optionalKey(BodyValues) }), OtherKeys)
  .annotate({ identifier: "ValuesBody", description: "An absent body, or absent `values`, means `{}`." })

// The form

export const FormSectionWire = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  position: FormPosition,
  visible_if: ConditionWire,
  fields: Schema.Array(FieldWire)
}).annotate({ identifier: "FormSection" })

export const FormWire = Schema.Struct({
  name: Schema.String,
  type: StoredFormType,
  event: Schema.NullOr(Schema.Struct({ id: Schema.String, name: Schema.String })),
  accepts_submissions: Schema.Boolean,
  opens_at: Schema.NullOr(Schema.String),
  closes_at: Schema.NullOr(Schema.String),
  sections: Schema.Array(FormSectionWire),
  fields: Schema.Array(FieldWire),
  language: Schema.String.annotate({
    description: "The language of the form's texts in this answer: `lang` when it names one of `languages`, else the first " +
      "`Accept-Language` range that matches one, else the default (the first of `languages`)."
  }),
  languages: Schema.Array(Schema.String).annotate({ description: "The form's languages (BCP 47), the default first." })
}).annotate({ identifier: "Form" })
export type FormWire = typeof FormWire.Type

export const FormEnvelope = envelopeOf(FormWire, "FormEnvelope")

/** Plain code-unit order, never locale collation. */
export const compareCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

const byPositionThen = <A extends { readonly position: number }>(key: (a: A) => string) => (x: A, y: A) =>
  x.position - y.position || compareCodeUnits(key(x), key(y))

/** The form with its texts in `language` (one of its languages). */
export const toFormWire = (view: FormView, language: string): FormWire => {
  const schema = translateForm(view.schema, language)
  const sections = [...schema.sections].sort(byPositionThen((s) => s.id))
  const sectionIds = new Set(sections.map((s) => s.id))
  const fields = [...schema.fields].sort(byPositionThen((f) => f.slug))
  const inSection = (id: string) => fields.filter((f) => f.section_id === id).map(toFieldWire)
  return {
    name: schema.name,
    type: schema.type,
    event: schema.event === null ? null : { id: schema.event.id, name: schema.event.name },
    accepts_submissions: view.accepts_submissions,
    opens_at: isoOrNull(schema.opens_at),
    closes_at: isoOrNull(schema.closes_at),
    sections: sections.map((s) => ({
      id: s.id,
      name: s.name,
      position: s.position,
      visible_if: s.visible_if ?? null,
      fields: inSection(s.id)
    })),
    // A field whose section is not among the schema's sections is shown as a loose field.
    fields: fields.filter((f) => f.section_id === null || !sectionIds.has(f.section_id)).map(toFieldWire),
    language,
    languages: languagesOf(schema)
  }
}

// Time slots (volunteer forms) and registration sections

export const TimeSlotsEnvelope = Schema.Struct({ data: Schema.Array(TimeSlotWire) }).annotate({
  identifier: "TimeSlotsEnvelope"
})

export const RegistrationSectionWire = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  type: Schema.String,
  position: WholePosition
}).annotate({ identifier: "RegistrationSection" })

export const toSectionWire = (section: RegistrationSection): typeof RegistrationSectionWire.Type => ({
  id: section.id,
  name: section.name,
  type: section.type,
  position: section.position
})

export const SectionsEnvelope = Schema.Struct({ data: Schema.Array(RegistrationSectionWire) }).annotate({
  identifier: "SectionsEnvelope"
})
