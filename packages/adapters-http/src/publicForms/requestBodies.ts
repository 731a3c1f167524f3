/**
 * The request-shape checks (422 before any lookup): `idempotency_key`, `values` not an
 * object, and the size limits through the domain's `checkSizeLimits`. The bodies' schemas in `wire.ts` document
 * these checks; `test/requestBodies.test.ts` runs one table of bodies through both.
 */
import { Effect } from "effect"
import { checkSizeLimits, copyValues, emptyValues, type FieldError, type FieldErrors, type SizeLimits, type Values } from "@forms/domain"
import { requiredMessage } from "@forms/domain/internal"
import { apiError, type ApiErrorOf } from "../http/errorTable.js"
import { IdempotencyKeyPattern, idempotencyKeyRule } from "./wire.js"
import type { JsonObject } from "../http/readJsonBody.js"

const required: FieldError = { rule: "required", message: requiredMessage }
const invalidKey: FieldError = { rule: "invalid", message: idempotencyKeyRule }
const invalidValues: FieldError = { rule: "invalid", message: "Must be an object mapping field slugs to values." }
const unstorableText: FieldError = { rule: "invalid", message: "Must not contain NUL characters or unpaired surrogates." }

// PostgreSQL text and jsonb hold neither U+0000 nor a lone surrogate: such a value would fail the write (a 500).
const unstorable = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/
// Strings and the strings of an array: anything nested deeper is `invalid` in validation and never stored.
const isUnstorable = (value: unknown): boolean =>
  typeof value === "string"
    ? unstorable.test(value)
    : Array.isArray(value) && value.some((item) => typeof item === "string" && unstorable.test(item))

const isObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const has = (body: JsonObject, key: string) => Object.hasOwn(body, key)

export interface ValuesRequest {
  /** Null-prototype copy of the body's `values`; empty when absent. */
  readonly values: Values
}

export interface CreateRequest extends ValuesRequest {
  readonly idempotency_key: string
  /** Whether the body carried `values` at all. */
  readonly hasValues: boolean
}

type ShapeError = ApiErrorOf<"ValidationFailed">

const fail = (fields: Record<string, ReadonlyArray<FieldError>>): Effect.Effect<never, ShapeError> =>
  Effect.fail(apiError("ValidationFailed", fields))

/** Strings that cannot be stored are `invalid` under their key (as sent, like the size limits); later rules of the key do not run. */
const withUnstorableErrors = (errors: Record<string, ReadonlyArray<FieldError>>, values: Values | undefined): void => {
  if (values === undefined) return
  for (const key of Object.keys(values)) {
    if (isUnstorable(values[key])) errors[key] = key === "values" ? [unstorableText, ...(errors[key] ?? [])] : [unstorableText]
  }
}

/** Adds the size-limit errors of `values`, after any shape error of the same key. */
const withSizeErrors = (
  errors: Record<string, ReadonlyArray<FieldError>>,
  body: JsonObject,
  limits: SizeLimits
): void => {
  const sizeErrors: FieldErrors | undefined = checkSizeLimits(body["values"], limits)
  if (sizeErrors === undefined) return
  for (const key of Object.keys(sizeErrors)) {
    const list = sizeErrors[key]
    if (list !== undefined) errors[key] = [...(errors[key] ?? []), ...list]
  }
}

const checkValues = (
  body: JsonObject,
  errors: Record<string, ReadonlyArray<FieldError>>
): Values | undefined => {
  if (!has(body, "values")) return undefined
  const values = body["values"]
  if (!isObject(values)) {
    errors["values"] = [invalidValues]
    return undefined
  }
  return copyValues(values)
}

const emptyBody: JsonObject = Object.freeze(Object.create(null) as JsonObject)

/** Body of POST /submissions: `{ idempotency_key, values? }`. An absent body has no key. */
export const decodeCreateBody = (
  raw: JsonObject | undefined,
  limits: SizeLimits
): Effect.Effect<CreateRequest, ShapeError> => {
  const body = raw ?? emptyBody
  const errors: Record<string, ReadonlyArray<FieldError>> = Object.create(null) as Record<string, never>
  const key = has(body, "idempotency_key") ? body["idempotency_key"] : undefined
  if (key === undefined || key === null || (typeof key === "string" && key.trim() === "")) {
    errors["idempotency_key"] = [required]
  } else if (typeof key !== "string" || !IdempotencyKeyPattern.test(key)) {
    errors["idempotency_key"] = [invalidKey]
  }
  const values = checkValues(body, errors)
  withSizeErrors(errors, body, limits)
  withUnstorableErrors(errors, values)
  if (Object.keys(errors).length > 0 || typeof key !== "string") return fail(errors)
  return Effect.succeed({
    idempotency_key: key,
    values: values ?? emptyValues(),
    hasValues: values !== undefined
  })
}

/** Body of PUT and submit: `{ values? }`; no body at all means no values. */
export const decodeValuesBody = (
  raw: JsonObject | undefined,
  limits: SizeLimits
): Effect.Effect<ValuesRequest, ShapeError> => {
  const body = raw ?? emptyBody
  const errors: Record<string, ReadonlyArray<FieldError>> = Object.create(null) as Record<string, never>
  const values = checkValues(body, errors)
  withSizeErrors(errors, body, limits)
  withUnstorableErrors(errors, values)
  if (Object.keys(errors).length > 0) return fail(errors)
  return Effect.succeed({ values: values ?? emptyValues() })
}
