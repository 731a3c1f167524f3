/**
 * The steps every organiser handler takes after the key check, in the organiser API's order of checks: the body
 * (415, 413, 400) or the query (400 INVALID_QUERY), then the `admin` limit (429), then the handler's own.
 */
import { Effect, Result } from "effect"
import type { HttpServerRequest } from "effect/http"
import { readJsonBody } from "../http/readJsonBody.js"
import { apiError } from "../http/errorTable.js"
import { adminLimit } from "./AdminConfig.js"
import { CurrentActor } from "./OrganiserAuth.js"
import { type KeyCodec, pageRequestOf } from "../http/paging.js"

/** The key's actor after the limit step (routes without a body or a query). */
export const limitedActor = Effect.gen(function*() {
  const actor = yield* CurrentActor
  yield* adminLimit(actor)
  return actor
})

/** Body first (no body is `{}`), then the limit. */
export const bodyThenLimit = (request: HttpServerRequest.HttpServerRequest, maxBodyBytes: number) =>
  Effect.gen(function*() {
    const body = (yield* readJsonBody(request, maxBodyBytes)) ?? {}
    const actor = yield* limitedActor
    return { actor, body }
  })

/** The page asked for, then the limit. */
export const pageThenLimit = <K>(request: HttpServerRequest.HttpServerRequest, codec: KeyCodec<K>) =>
  Effect.gen(function*() {
    const page = pageRequestOf(request.url, codec)
    if (Result.isFailure(page)) return yield* apiError("InvalidQuery")
    const actor = yield* limitedActor
    return { actor, page: page.success }
  })
