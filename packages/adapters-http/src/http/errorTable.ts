/** The one table from a domain error or request condition to status, code and message (the error codes of the API). */
import { Effect, Schema } from "effect"
import { HttpServerResponse } from "effect/http"
import type {
  AlreadySubmitted,
  CancelClosed,
  ManageNotFound,
  PlaceNotFound,
  FileNotFound,
  FileQuota,
  MessageNotFound,
  MessageNotRetryable,
  FileTooLarge,
  UploadAborted,
  DeliveryNotFound,
  WebhookNotFound,
  AdvanceSectionNotFound,
  ArtistNotFound,
  EngagementNotFound,
  EventNotFound,
  EventSectionNotFound,
  InUse,
  ContactNotFound,
  EventNotDead,
  OutboxEventNotFound,
  PreconditionRequired,
  RevisionConflict,
  TimeSlotNotFound,
  Unauthenticated,
  ArtistGone,
  FormClosed,
  FormNotFound,
  PortalNotFound,
  RateLimited,
  Refused,
  SectionLocked,
  SectionNotFound,
  SubmissionNotFound,
  TimeSlotsNotAvailable,
  Unavailable,
  ValidationFailed
} from "@forms/domain"
import {
  type ApiErrorOfStatus,
  type ErrorCode,
  type ErrorStatus,
  errorClassOfStatus,
  type FieldErrorsWire
} from "./ErrorEnvelope.js"

interface Entry {
  readonly status: ErrorStatus
  readonly code: ErrorCode
  readonly message: string
}

export const errorTable = {
  // Domain errors, by `_tag`.
  FormNotFound: { status: 404, code: "FORM_NOT_FOUND", message: "No published form has this token." },
  SubmissionNotFound: {
    status: 404,
    code: "SUBMISSION_NOT_FOUND",
    message: "This form has no submission with this id."
  },
  TimeSlotsNotAvailable: {
    status: 404,
    code: "TIME_SLOTS_NOT_AVAILABLE",
    message: "Time slots are only available for volunteer forms."
  },
  PortalNotFound: { status: 404, code: "PORTAL_NOT_FOUND", message: "No portal has this token." },
  SectionNotFound: { status: 404, code: "SECTION_NOT_FOUND", message: "This portal has no such section." },
  SectionLocked: { status: 409, code: "SECTION_LOCKED", message: "This section is locked: it takes no more answers." },
  ArtistGone: { status: 410, code: "ARTIST_GONE", message: "The artist of this portal no longer exists." },
  AlreadySubmitted: {
    status: 409,
    code: "SUBMISSION_ALREADY_SUBMITTED",
    message: "This submission has already been submitted."
  },
  FormClosed: { status: 409, code: "FORM_CLOSED", message: "This form does not accept submissions." },
  ValidationFailed: { status: 422, code: "VALIDATION_FAILED", message: "One or more values are invalid." },
  RateLimited: { status: 429, code: "RATE_LIMITED", message: "Too many requests. Try again later." },
  Unavailable: {
    status: 503,
    code: "UNAVAILABLE",
    message: "The service is temporarily unavailable. Nothing was written."
  },
  // Uploads.
  FileTooLarge: { status: 413, code: "FILE_TOO_LARGE", message: "The file is larger than this field takes." },
  FileQuota: {
    status: 409,
    code: "FILE_QUOTA",
    message: "This field holds its most files already, or the submission its most bytes."
  },
  FileNotFound: { status: 404, code: "FILE_NOT_FOUND", message: "No file has this id here." },
  UploadAborted: { status: 400, code: "BAD_REQUEST", message: "The upload did not arrive whole." },
  // Messages.
  MessageNotFound: { status: 404, code: "MESSAGE_NOT_FOUND", message: "No message has this id." },
  MessageNotRetryable: { status: 409, code: "MESSAGE_NOT_RETRYABLE", message: "Only a failed or held message can be retried." },
  // Managing one's shifts.
  ManageNotFound: { status: 404, code: "MANAGE_NOT_FOUND", message: "No submission has this manage link." },
  PlaceNotFound: { status: 404, code: "PLACE_NOT_FOUND", message: "This submission holds no place in this time slot." },
  CancelClosed: { status: 409, code: "CANCEL_CLOSED", message: "This place can no longer be given up here." },
  // The organiser routes.
  Unauthenticated: { status: 401, code: "UNAUTHENTICATED", message: "A valid API key is required." },
  EventNotFound: { status: 404, code: "EVENT_NOT_FOUND", message: "No event has this id." },
  TimeSlotNotFound: { status: 404, code: "TIME_SLOT_NOT_FOUND", message: "No time slot has this id." },
  EventSectionNotFound: { status: 404, code: "EVENT_SECTION_NOT_FOUND", message: "No event section has this id." },
  ArtistNotFound: { status: 404, code: "ARTIST_NOT_FOUND", message: "No artist has this id." },
  EngagementNotFound: { status: 404, code: "ENGAGEMENT_NOT_FOUND", message: "No engagement has this id." },
  AdvanceSectionNotFound: { status: 404, code: "SECTION_NOT_FOUND", message: "This engagement has no advance section with this id." },
  InUse: { status: 409, code: "IN_USE", message: "This resource is still referenced and cannot be deleted." },
  ContactNotFound: { status: 404, code: "CONTACT_NOT_FOUND", message: "No contact has this id." },
  OutboxEventNotFound: { status: 404, code: "OUTBOX_EVENT_NOT_FOUND", message: "No outbox event has this id." },
  EventNotDead: { status: 409, code: "EVENT_NOT_DEAD", message: "Only a dead event can be retried." },
  WebhookNotFound: { status: 404, code: "WEBHOOK_NOT_FOUND", message: "No webhook endpoint has this id." },
  DeliveryNotFound: { status: 404, code: "DELIVERY_NOT_FOUND", message: "This webhook endpoint has no delivery with this id." },
  InvalidQuery: { status: 400, code: "INVALID_QUERY", message: "A query parameter is malformed." },
  RevisionConflict: {
    status: 412,
    code: "REVISION_CONFLICT",
    message: "The form has changed since the revision named in If-Match. Read it again and retry."
  },
  PreconditionRequired: {
    status: 428,
    code: "PRECONDITION_REQUIRED",
    message: "This request needs an If-Match header naming the form's revision (its ETag)."
  },
  // Conditions found by the HTTP adapter itself.
  RouteNotFound: { status: 404, code: "NOT_FOUND", message: "No such route." },
  MethodNotAllowed: { status: 405, code: "METHOD_NOT_ALLOWED", message: "This route does not allow this method." },
  UnsupportedMediaType: {
    status: 415,
    code: "UNSUPPORTED_MEDIA_TYPE",
    message: "A request body must be sent as application/json."
  },
  PayloadTooLarge: { status: 413, code: "PAYLOAD_TOO_LARGE", message: "The request body is too large." },
  MalformedJson: { status: 400, code: "MALFORMED_JSON", message: "The request body must be a JSON object." },
  // Requests Node's HTTP parser refuses, answered from the server's `clientError` listener (clientError.ts).
  BadRequest: { status: 400, code: "BAD_REQUEST", message: "The request is malformed." },
  HeadersTooLarge: { status: 431, code: "HEADERS_TOO_LARGE", message: "The request headers are too large." },
  Internal: { status: 500, code: "INTERNAL", message: "An unexpected error occurred." }
} as const satisfies Record<string, Entry>

export type ErrorKey = keyof typeof errorTable
export type ApiErrorOf<K extends ErrorKey> = ApiErrorOfStatus<(typeof errorTable)[K]["status"]>

/** Every domain error a use case can fail with (port-level errors never leave a use case). */
export type DomainError = Refused | DomainReason

/** A domain error as the table knows it: a `Refused` stands for its reason. */
type DomainReason =
  | FormNotFound
  | SubmissionNotFound
  | TimeSlotsNotAvailable
  | PortalNotFound
  | SectionNotFound
  | SectionLocked
  | ArtistGone
  | AlreadySubmitted
  | FormClosed
  | ValidationFailed
  | RateLimited
  | Unavailable
  | Unauthenticated
  | EventNotFound
  | TimeSlotNotFound
  | EventSectionNotFound
  | ArtistNotFound
  | EngagementNotFound
  | AdvanceSectionNotFound
  | InUse
  | ContactNotFound
  | OutboxEventNotFound
  | EventNotDead
  | WebhookNotFound
  | DeliveryNotFound
  | PreconditionRequired
  | RevisionConflict
  | FileTooLarge
  | FileQuota
  | FileNotFound
  | UploadAborted
  | MessageNotFound
  | MessageNotRetryable
  | ManageNotFound
  | PlaceNotFound
  | CancelClosed

/** The wire error of a table entry; `fields` only for VALIDATION_FAILED. */
export const apiError = <K extends ErrorKey>(key: K, fields?: FieldErrorsWire): ApiErrorOf<K> => {
  const entry: Entry = errorTable[key]
  const Class = errorClassOfStatus[entry.status]
  const body = fields === undefined
    ? { code: entry.code, message: entry.message }
    : { code: entry.code, message: entry.message, fields: copyFields(fields) }
  return new Class({ error: body }) as ApiErrorOf<K>
}

/** A use case whose domain errors leave as their wire errors (each handler's one way to call the domain). */
export const wireErrors = <A, E extends DomainError, R>(effect: Effect.Effect<A, E, R>) => Effect.mapError(effect, fromDomainError)

/** The table key of a domain error: a refusal's reason decides the answer. */
export type ErrorKeyOf<E extends DomainError> = E extends Refused<infer Reason> ? Reason["_tag"] : Exclude<E, Refused>["_tag"]

/** The wire error of a domain error. Never puts the domain class (or its `_tag`) on the wire. */
export const fromDomainError = <E extends DomainError>(error: E): ApiErrorOf<ErrorKeyOf<E>> => {
  const reason: DomainReason = error._tag === "Refused" ? error.reason : error
  return apiError(reason._tag, reason._tag === "ValidationFailed" ? reason.fields : undefined) as ApiErrorOf<ErrorKeyOf<E>>
}

// A slug such as `__proto__` must stay an own key of the encoded map.
const copyFields = (fields: FieldErrorsWire): FieldErrorsWire => {
  const out: Record<string, FieldErrorsWire[string]> = Object.create(null) as Record<string, FieldErrorsWire[string]>
  for (const key of Object.keys(fields)) {
    const list = fields[key]
    if (list !== undefined) Object.defineProperty(out, key, { value: list, enumerable: true, writable: true })
  }
  return out
}

const encoders = new Map<ErrorStatus, (error: unknown) => unknown>()
const encoderOf = (status: ErrorStatus) => {
  let encode = encoders.get(status)
  if (encode === undefined) {
    encode = Schema.encodeUnknownSync(Schema.toCodecJson(errorClassOfStatus[status]))
    encoders.set(status, encode)
  }
  return encode
}

/** The JSON envelope of a table entry, as every error answer carries it. */
export const errorBody = (key: ErrorKey, fields?: FieldErrorsWire): string =>
  JSON.stringify(encoderOf(errorTable[key].status)(apiError(key, fields)))

/** The response of a table entry, for answers given outside an endpoint (404, 405, 500). */
export const errorResponse = (
  key: ErrorKey,
  options?: { readonly fields?: FieldErrorsWire; readonly headers?: Record<string, string> }
): HttpServerResponse.HttpServerResponse => {
  const status = errorTable[key].status
  return HttpServerResponse.text(errorBody(key, options?.fields), {
    status,
    contentType: "application/json",
    ...(options?.headers === undefined ? {} : { headers: options.headers })
  })
}
