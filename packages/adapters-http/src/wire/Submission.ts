/** The Submission resource on the wire (CONTRACT §2): snake_case, ISO 8601 UTC timestamps. */
import { Schema } from "effect"
import { HttpServerResponse } from "effect/http"
import { defaultSizeLimits, type Submission, type Values } from "@forms/domain"

/**
 * A member of a values map: any JSON value. Described, because JSON Schema drops a bare `{}` from
 * `additionalProperties`, and a map without it reads as an object with no members (openapi-typescript:
 * `Record<string, never>`). `Schema.Unknown` would lose the description.
 */
const AnyJsonValue = Schema.Json.annotate({ description: "Any JSON value." })

export const ValuesWire = Schema.Record(Schema.String, AnyJsonValue).annotate({
  description: "A map from field slug to value."
})
export type ValuesWire = typeof ValuesWire.Type

/** The domain types values as `unknown`; every stored value came from a JSON body or a jsonb column, so it is JSON. */
export const toValuesWire = (values: Values): ValuesWire => values as ValuesWire

export const SubmissionWire = Schema.Struct({
  id: Schema.String,
  status: Schema.Literals(["draft", "submitted"]),
  idempotency_key: Schema.String,
  auto_save_count: Schema.Int,
  event_id: Schema.NullOr(Schema.String),
  values: ValuesWire,
  created_at: Schema.String,
  updated_at: Schema.String,
  submitted_at: Schema.NullOr(Schema.String)
}).annotate({ identifier: "Submission" })
export type SubmissionWire = typeof SubmissionWire.Type

const iso = (epochMs: number): string => new Date(epochMs).toISOString()

export const toSubmissionWire = (submission: Submission): SubmissionWire => ({
  id: submission.id,
  status: submission.status,
  idempotency_key: submission.idempotency_key,
  auto_save_count: submission.auto_save_count,
  event_id: submission.event_id,
  values: toValuesWire(submission.values),
  created_at: iso(submission.created_at),
  updated_at: iso(submission.updated_at),
  submitted_at: submission.submitted_at === null ? null : iso(submission.submitted_at)
})

/**
 * `{ data: <submission> }` as the response itself. The wire shape is plain JSON (strings, numbers, the stored
 * values), so it is written as it is: encoding it with `SubmissionEnvelope` would copy every value for an
 * identical result. The schemas below still document it (OpenAPI) and decode it (the typed client, the tests).
 */
export const submissionResponse = (submission: Submission, status: 200 | 201 = 200): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.jsonUnsafe({ data: toSubmissionWire(submission) }, { status })

// Two classes of one shape, so that the status (201 new, 200 replay) follows the class.
export class DraftCreated extends Schema.Class<DraftCreated>("DraftCreated")({ data: SubmissionWire }, {
  httpApiStatus: 201,
  description: "A new draft."
}) {}

export class DraftExisting extends Schema.Class<DraftExisting>("DraftExisting")({ data: SubmissionWire }, {
  description: "The draft or submission already stored under this idempotency key, in its stored state."
}) {}

export const SubmissionEnvelope = Schema.Struct({ data: SubmissionWire }).annotate({
  identifier: "SubmissionEnvelope"
})

/**
 * The idempotency key of CONTRACT §3: 16 to 255 printable ASCII characters without spaces. The one definition:
 * `decodeCreateBody` tests keys with it and `CreateDraftBody` documents it (the `u` flag lets Schema export it
 * to JSON Schema; it matches the same strings without it).
 */
export const IdempotencyKeyPattern = /^[\x21-\x7E]{16,255}$/u
export const idempotencyKeyRule = "Must be 16 to 255 printable ASCII characters without spaces."

const { maxArrayItems, maxStringLength, maxValuesKeys } = defaultSizeLimits
/** The §8 limits are settings of the server, so they are told here (with their defaults), not fixed in the schema. */
const BodyValues = ValuesWire.annotate({
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
