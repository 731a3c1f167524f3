/**
 * The global middleware: request id on every response, 404/405 for routes the router does not know,
 * 500 INTERNAL for anything unexpected (logged by class and code: no stack, no message, no values), and one JSON log line per request
 * naming the route template, never the raw path. The same template names the request's span (when tracing is on)
 * and its series in the request histogram (when `RequestMetrics` is set).
 */
import { Cause, Clock, Effect } from "effect"
import { HttpServerError, HttpServerRequest, HttpServerResponse } from "effect/http"
import { RequestMetrics } from "../operations/RequestMetrics.js"
import { withRequestSpan } from "../operations/requestSpan.js"
import { describeCause, describeError } from "./describeFailure.js"
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

/** A path's own not-found answer (a page's is an HTML page), or undefined for the JSON envelope. */
export type NotFoundAnswer = (path: string) => HttpServerResponse.HttpServerResponse | undefined

export const requestMiddleware = (routes: RouteCatalogue, notFoundAnswer: NotFoundAnswer) =>
<E, R>(
  app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest> =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const requestId = requestIdFor(request.headers["x-request-id"])
    const started = yield* Clock.currentTimeMillis
    const metrics = yield* RequestMetrics
    const startedNanos = metrics === undefined ? 0n : yield* Clock.currentTimeNanos
    const nul = hasEncodedNul(request.url)
    const match = nul ? { _tag: "NotFound" as const } : routes.match(request.method, request.url)
    const annotations = {
      request_id: requestId,
      method: request.method,
      route: match._tag === "NotFound" ? null : match.template
    }
    // A page's path answers its 404 as a page, to the methods a page has.
    const isPageMethod = request.method === "GET" || request.method === "HEAD"
    const notFound = () => (isPageMethod ? notFoundAnswer(pathOf(request.url)) : undefined) ?? errorResponse("RouteNotFound")
    const response = yield* (nul ? Effect.sync(notFound) : app).pipe(
      Effect.catchCause((cause) => {
        if (Cause.hasInterruptsOnly(cause)) return Effect.failCause(cause)
        if (isRouteNotFound(cause)) {
          return Effect.succeed(
            match._tag === "MethodNotAllowed"
              ? errorResponse("MethodNotAllowed", { headers: { allow: match.allow.join(", ") } })
              : notFound()
          )
        }
        // Class, reason and code only: a message (a driver's error text above all) may quote values.
        const first = describeError(Cause.squash(cause))
        return Effect.logError("unexpected failure").pipe(
          Effect.annotateLogs({
            ...annotations,
            defect: first.error,
            ...(first.reason === undefined ? {} : { defect_reason: first.reason }),
            ...(first.code === undefined ? {} : { defect_code: first.code })
          }),
          Effect.andThen(Effect.logDebug("unexpected failure, in full").pipe(
            Effect.annotateLogs({ ...annotations, failures: describeCause(cause) })
          )),
          Effect.as(errorResponse("Internal"))
        )
      }),
      Effect.annotateLogs(annotations),
      withRequestSpan(request, annotations.route)
    )
    const finished = yield* Clock.currentTimeMillis
    if (metrics !== undefined) {
      const seconds = Number((yield* Clock.currentTimeNanos) - startedNanos) / 1e9
      yield* metrics.observe(request.method, annotations.route, response.status, seconds)
    }
    yield* Effect.logInfo("request").pipe(
      Effect.annotateLogs({ ...annotations, status: response.status, duration_ms: finished - started })
    )
    return HttpServerResponse.setHeader(response, "x-request-id", requestId)
  })
