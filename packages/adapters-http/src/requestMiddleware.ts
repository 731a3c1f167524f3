/**
 * The global middleware: request id on every response, 404/405 for routes the router does not know,
 * 500 INTERNAL for anything unexpected (no stack, no values), and one JSON log line per request
 * naming the route template, never the raw path.
 */
import { Cause, Clock, Effect } from "effect"
import { HttpServerError, HttpServerRequest, HttpServerResponse } from "effect/http"
import { errorResponse } from "./errorTable.js"
import { requestIdFor } from "./requestId.js"
import { pathOf, type RouteCatalogue } from "./RouteCatalogue.js"

// A path segment that decodes to U+0000 names nothing stored (PostgreSQL text holds no NUL, so a query
// with it fails): it is answered like the undecodable segments the router refuses, 404 NOT_FOUND.
const hasEncodedNul = (url: string): boolean => /%00/.test(pathOf(url))

const isRouteNotFound = (cause: Cause.Cause<unknown>): boolean =>
  cause.reasons.some((reason) =>
    Cause.isFailReason(reason) && HttpServerError.isHttpServerError(reason.error) &&
    reason.error.reason._tag === "RouteNotFound"
  )

/** What a defect is called in the log: its tag or class name, never its message (it may hold values). */
const defectName = (cause: Cause.Cause<unknown>): string => {
  const error = Cause.squash(cause)
  if (typeof error === "object" && error !== null) {
    if ("_tag" in error && typeof error._tag === "string") return error._tag
    if (error instanceof Error) return error.name
  }
  return typeof error
}

export const requestMiddleware = (routes: RouteCatalogue) =>
<E, R>(
  app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest> =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const requestId = requestIdFor(request.headers["x-request-id"])
    const started = yield* Clock.currentTimeMillis
    const nul = hasEncodedNul(request.url)
    const match = nul ? { _tag: "NotFound" as const } : routes.match(request.method, request.url)
    const annotations = {
      request_id: requestId,
      method: request.method,
      route: match._tag === "NotFound" ? null : match.template
    }
    const response = yield* (nul ? Effect.succeed(errorResponse("RouteNotFound")) : app).pipe(
      Effect.catchCause((cause) => {
        if (Cause.hasInterruptsOnly(cause)) return Effect.failCause(cause)
        if (isRouteNotFound(cause)) {
          return Effect.succeed(
            match._tag === "MethodNotAllowed"
              ? errorResponse("MethodNotAllowed", { headers: { allow: match.allow.join(", ") } })
              : errorResponse("RouteNotFound")
          )
        }
        return Effect.logError("unexpected failure").pipe(
          Effect.annotateLogs({ ...annotations, defect: defectName(cause) }),
          Effect.andThen(Effect.logDebug("unexpected failure, in full", Cause.pretty(cause))),
          Effect.as(errorResponse("Internal"))
        )
      }),
      Effect.annotateLogs(annotations)
    )
    const finished = yield* Clock.currentTimeMillis
    yield* Effect.logInfo("request").pipe(
      Effect.annotateLogs({ ...annotations, status: response.status, duration_ms: finished - started })
    )
    return HttpServerResponse.setHeader(response, "x-request-id", requestId)
  })
