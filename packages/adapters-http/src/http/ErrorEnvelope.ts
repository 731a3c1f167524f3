/** The error envelope `{ error: { code, message, fields? } }`, one schema-backed error class per HTTP status. */
import { Schema } from "effect"
import { FieldError, FieldErrors } from "@forms/domain"

/** Every stable error code. */
export const ErrorCode = Schema.Literals([
  "MALFORMED_JSON",
  "BAD_REQUEST",
  "HEADERS_TOO_LARGE",
  "FORM_NOT_FOUND",
  "SUBMISSION_NOT_FOUND",
  "TIME_SLOTS_NOT_AVAILABLE",
  "PORTAL_NOT_FOUND",
  "SECTION_NOT_FOUND",
  "SECTION_LOCKED",
  "NOT_FOUND",
  "METHOD_NOT_ALLOWED",
  "SUBMISSION_ALREADY_SUBMITTED",
  "FORM_CLOSED",
  "ARTIST_GONE",
  "PAYLOAD_TOO_LARGE",
  "UNSUPPORTED_MEDIA_TYPE",
  "VALIDATION_FAILED",
  "RATE_LIMITED",
  "UNAVAILABLE",
  "INTERNAL",
  // The organiser routes.
  "UNAUTHENTICATED",
  "INVALID_QUERY",
  "EVENT_NOT_FOUND",
  "TIME_SLOT_NOT_FOUND",
  "EVENT_SECTION_NOT_FOUND",
  "ARTIST_NOT_FOUND",
  "ENGAGEMENT_NOT_FOUND",
  "IN_USE",
  "CONTACT_NOT_FOUND",
  "OUTBOX_EVENT_NOT_FOUND",
  "EVENT_NOT_DEAD",
  "WEBHOOK_NOT_FOUND",
  "DELIVERY_NOT_FOUND",
  "REVISION_CONFLICT",
  "PRECONDITION_REQUIRED",
  // Uploads.
  "FILE_TOO_LARGE",
  "FILE_QUOTA",
  "FILE_NOT_FOUND",
  // Messages.
  "MESSAGE_NOT_FOUND",
  "MESSAGE_NOT_RETRYABLE",
  // Volunteer shifts: managing one's places.
  "MANAGE_NOT_FOUND",
  "PLACE_NOT_FOUND",
  "CANCEL_CLOSED"
])
export type ErrorCode = typeof ErrorCode.Type

/** A field's errors on the wire are the domain's, defined once (domain `rules/FieldErrors.ts`). */
export const FieldErrorWire = FieldError
export const FieldErrorsWire = FieldErrors
export type FieldErrorsWire = FieldErrors

export const ErrorBody = Schema.Struct({
  code: ErrorCode,
  message: Schema.String,
  /** Only on VALIDATION_FAILED. */
  fields: Schema.optionalKey(FieldErrorsWire)
})
export type ErrorBody = typeof ErrorBody.Type

const envelope = { error: ErrorBody }

// One class per status: the HttpApi encodes a failure with the status of the class it is an
// instance of, and the typed client decodes a response by its status. The encoded form is
// exactly `{ error: { code, message, fields? } }`, with no `_tag`.
export class ApiMalformedJson extends Schema.Error<ApiMalformedJson>("ApiMalformedJson")(envelope, {
  httpApiStatus: 400,
  description: "MALFORMED_JSON: the body is not valid JSON, or not a JSON object; BAD_REQUEST: a request the HTTP " +
    "parser refuses; INVALID_QUERY: a malformed query parameter of an organiser route."
}) {}

export class ApiUnauthenticated extends Schema.Error<ApiUnauthenticated>("ApiUnauthenticated")(envelope, {
  httpApiStatus: 401,
  description: "UNAUTHENTICATED: no valid, unrevoked API key; the answer carries `WWW-Authenticate: Bearer`."
}) {}

export class ApiNotFound extends Schema.Error<ApiNotFound>("ApiNotFound")(envelope, {
  httpApiStatus: 404,
  description: "FORM_NOT_FOUND, SUBMISSION_NOT_FOUND, TIME_SLOTS_NOT_AVAILABLE, PORTAL_NOT_FOUND, SECTION_NOT_FOUND, " +
    "FILE_NOT_FOUND, MESSAGE_NOT_FOUND, MANAGE_NOT_FOUND, PLACE_NOT_FOUND or NOT_FOUND."
}) {}

export class ApiMethodNotAllowed extends Schema.Error<ApiMethodNotAllowed>("ApiMethodNotAllowed")(envelope, {
  httpApiStatus: 405,
  description: "METHOD_NOT_ALLOWED"
}) {}

export class ApiConflict extends Schema.Error<ApiConflict>("ApiConflict")(envelope, {
  httpApiStatus: 409,
  description: "SUBMISSION_ALREADY_SUBMITTED, FORM_CLOSED, SECTION_LOCKED, FILE_QUOTA, MESSAGE_NOT_RETRYABLE, CANCEL_CLOSED or IN_USE."
}) {}

export class ApiGone extends Schema.Error<ApiGone>("ApiGone")(envelope, {
  httpApiStatus: 410,
  description: "ARTIST_GONE"
}) {}

export class ApiPreconditionFailed extends Schema.Error<ApiPreconditionFailed>("ApiPreconditionFailed")(envelope, {
  httpApiStatus: 412,
  description: "REVISION_CONFLICT: `If-Match` names a revision that is no longer current (or a weak or unquoted tag)."
}) {}

export class ApiPreconditionRequired extends Schema.Error<ApiPreconditionRequired>("ApiPreconditionRequired")(envelope, {
  httpApiStatus: 428,
  description: "PRECONDITION_REQUIRED: a form definition PUT without `If-Match`."
}) {}

export class ApiPayloadTooLarge extends Schema.Error<ApiPayloadTooLarge>("ApiPayloadTooLarge")(envelope, {
  httpApiStatus: 413,
  description: "PAYLOAD_TOO_LARGE: the body is over MAX_BODY_BYTES; FILE_TOO_LARGE: an upload over its field's max_bytes."
}) {}

export class ApiUnsupportedMediaType
  extends Schema.Error<ApiUnsupportedMediaType>("ApiUnsupportedMediaType")(envelope, {
    httpApiStatus: 415,
    description: "UNSUPPORTED_MEDIA_TYPE: a body that is not application/json."
  })
{}

export class ApiValidationFailed extends Schema.Error<ApiValidationFailed>("ApiValidationFailed")(envelope, {
  httpApiStatus: 422,
  description: "VALIDATION_FAILED, with `fields`."
}) {}

export class ApiRateLimited extends Schema.Error<ApiRateLimited>("ApiRateLimited")(envelope, {
  httpApiStatus: 429,
  description: "RATE_LIMITED; `Retry-After` gives the seconds to wait."
}) {}

export class ApiHeadersTooLarge extends Schema.Error<ApiHeadersTooLarge>("ApiHeadersTooLarge")(envelope, {
  httpApiStatus: 431,
  description: "HEADERS_TOO_LARGE: the request headers are over the server's limit (16 KiB)."
}) {}

export class ApiInternal extends Schema.Error<ApiInternal>("ApiInternal")(envelope, {
  httpApiStatus: 500,
  description: "INTERNAL"
}) {}

export class ApiUnavailable extends Schema.Error<ApiUnavailable>("ApiUnavailable")(envelope, {
  httpApiStatus: 503,
  description: "UNAVAILABLE: the database cannot be reached; nothing was written."
}) {}

/** The class of each status, for building an error from the mapping table. */
export const errorClassOfStatus = {
  400: ApiMalformedJson,
  401: ApiUnauthenticated,
  404: ApiNotFound,
  405: ApiMethodNotAllowed,
  409: ApiConflict,
  410: ApiGone,
  412: ApiPreconditionFailed,
  413: ApiPayloadTooLarge,
  415: ApiUnsupportedMediaType,
  422: ApiValidationFailed,
  428: ApiPreconditionRequired,
  429: ApiRateLimited,
  431: ApiHeadersTooLarge,
  500: ApiInternal,
  503: ApiUnavailable
} as const
export type ErrorStatus = keyof typeof errorClassOfStatus
export type ApiErrorOfStatus<S extends ErrorStatus> = InstanceType<(typeof errorClassOfStatus)[S]>
export type ApiError = ApiErrorOfStatus<ErrorStatus>

/** The request-shape errors every body-carrying route can answer before any lookup. */
export const requestShapeErrors = [
  ApiUnsupportedMediaType,
  ApiPayloadTooLarge,
  ApiMalformedJson,
  ApiValidationFailed
] as const

/** What every route may answer: an unexpected failure (500) and a database out of reach (503). */
export const alwaysErrors = [ApiInternal, ApiUnavailable] as const
