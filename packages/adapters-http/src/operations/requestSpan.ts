/**
 * The server span of a request (OpenTelemetry's HTTP server conventions, reduced): named `<method> <route
 * template>`, continuing an incoming W3C `traceparent`, with the method, the route template and the status only.
 * No path, query string, header or client address: a path holds tokens. Effect's own HTTP tracer records the
 * URL, so the application turns it off (HttpApp) and this one takes its place. With tracing off or no exporter
 * (Effect's native tracer), nothing is made.
 */
import { Effect, Option, References, Tracer } from "effect"
import { type HttpServerRequest, type HttpServerResponse, HttpTraceContext } from "effect/http"
import { methodLabel } from "./RequestMetrics.js"

export const withRequestSpan = (request: HttpServerRequest.HttpServerRequest, route: string | null) =>
<E, R>(
  handled: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R> =>
  Effect.withFiber((fiber) => {
    // Tracing off, or Effect's native tracer (no backend: its spans reach nobody), makes nothing.
    if (!fiber.getRef(References.TracerEnabled) || fiber.getRef(Tracer.Tracer) === Tracer.nativeTracer) return handled
    const method = methodLabel(request.method)
    const parent = Option.getOrUndefined(HttpTraceContext.fromHeaders(request.headers))
    return handled.pipe(
      Effect.tap((response) => Effect.annotateCurrentSpan("http.response.status_code", response.status)),
      Effect.withSpan(route === null ? method : `${method} ${route}`, {
        kind: "server",
        ...(parent === undefined ? {} : { parent }),
        attributes: route === null
          ? { "http.request.method": method }
          : { "http.request.method": method, "http.route": route }
      })
    )
  })
