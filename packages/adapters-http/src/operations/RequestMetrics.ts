/**
 * The request histogram `http_server_request_duration_seconds` (OpenTelemetry's name and labels): one series per
 * method, route template and status. Off unless a server provides `RequestMetrics.layer`: the request middleware
 * then records every answer it sends. Labels never hold a path, a token or an id: the route is the template of
 * the route the path matched (its 404s included), `unmatched` when none did; a method outside the standard ones
 * is `_OTHER`, so a client cannot mint series.
 */
import { Context, Effect, Layer, Metric } from "effect"

export interface RequestMetricsShape {
  /** Records one answer; `route` is null when no route matched. */
  readonly observe: (method: string, route: string | null, status: number, seconds: number) => Effect.Effect<void>
}

/** Route label of a request that matched no route. */
export const unmatchedRoute = "unmatched"

const knownMethods: ReadonlySet<string> = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"])

/** OpenTelemetry's method rule: a method outside the known ones is `_OTHER`. */
export const methodLabel = (method: string): string => knownMethods.has(method) ? method : "_OTHER"

/** OpenTelemetry's recommended boundaries for HTTP server durations, in seconds. */
export const durationBoundaries: ReadonlyArray<number> = [
  0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10
]

/** One histogram per label set, made on first use and kept: an answer costs a map lookup and a bucket search. */
export const makeRequestMetrics = (): RequestMetricsShape => {
  const series = new Map<string, Metric.Histogram<number>>()
  return {
    observe: (method, route, status, seconds) => {
      const m = methodLabel(method)
      const r = route ?? unmatchedRoute
      const key = `${m} ${status} ${r}`
      let histogram = series.get(key)
      if (histogram === undefined) {
        histogram = Metric.histogram("http_server_request_duration_seconds", {
          description: "Duration of HTTP requests, by method, route template and status.",
          boundaries: durationBoundaries,
          attributes: { http_request_method: m, http_route: r, http_response_status_code: String(status) }
        })
        series.set(key, histogram)
      }
      return Metric.update(histogram, seconds)
    }
  }
}

/** Set (`RequestMetrics.layer`): requests are measured. Unset (the default): the middleware records nothing. */
export const RequestMetrics: Context.Reference<RequestMetricsShape | undefined> = Context.Reference<
  RequestMetricsShape | undefined
>("@forms/adapters-http/RequestMetrics", { defaultValue: () => undefined })

/** `RequestMetricsLive.layer`: sets `RequestMetrics` to a fresh recorder. */
export const RequestMetricsLive = {
  layer: Layer.sync(RequestMetrics, makeRequestMetrics)
} as const
