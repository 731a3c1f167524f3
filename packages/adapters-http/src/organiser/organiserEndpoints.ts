/** What every organiser group declares alike: the errors its routes answer, a created answer's status, an operation's document. */
import type { Schema } from "effect"
import { HttpApiSchema, OpenApi } from "effect/http-api"
import {
  alwaysErrors,
  ApiConflict,
  ApiMalformedJson,
  ApiNotFound,
  ApiRateLimited,
  requestShapeErrors
} from "../http/ErrorEnvelope.js"

// 401 comes from the middleware; every route may answer 429 and carries the limit's headers.
const limited = [ApiRateLimited, ...alwaysErrors] as const

/** The errors of a read by id, of a write with a body, and of a list with a query (400 INVALID_QUERY). */
export const organiserErrors = {
  read: [ApiNotFound, ...limited],
  write: [...requestShapeErrors, ApiNotFound, ApiConflict, ...limited],
  listed: [ApiMalformedJson, ApiNotFound, ...limited]
} as const

/** A success answered 201 Created. */
export const created = <S extends Schema.Top>(schema: S) => schema.pipe(HttpApiSchema.status(201))

/** An operation's summary, its operationId, and a longer description when given. */
export const operationDoc = (summary: string, identifier: string, description?: string) =>
  OpenApi.annotations(description === undefined ? { summary, identifier } : { summary, identifier, description })

/** How every organiser list pages. */
export const pagingNote = " Query: `limit` 1–200 (default 50), `cursor` (the `next_cursor` of the page before)."

/** The document's "Organiser" tag, which the catalog, artists and engagements groups share. */
export const organiserTag = OpenApi.annotations({
  title: "Organiser",
  description: "The organiser API: every route needs `Authorization: Bearer <api key>` and sees only the key's " +
    "organisation. Checks run in the order key (401) → body (415, 413, 400) → query (400 INVALID_QUERY) → the " +
    "`admin` limit (429) → ids in the path (404) → body members (422, keyed by dotted path) → conflicts (409). " +
    "Answers from the limit step on carry `RateLimit-Policy` and `RateLimit`."
})
