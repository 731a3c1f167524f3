/**
 * `/docs`: Scalar's page of the document, bundled (no CDN) and rendering offline (nothing loaded from another host:
 * no web fonts), answered from its one built page with an ETag. The page (Scalar with the whole document,
 * megabytes) is built once by its route, and a browser that holds it revalidates it for a 304 instead of fetching
 * it again.
 */
import { Effect } from "effect"
import { type HttpBody, HttpServerRequest, HttpServerResponse } from "effect/http"
import { type HttpApi, type HttpApiGroup, HttpApiScalar } from "effect/http-api"
import { etagOf, ifNoneMatchHolds } from "../http/etag.js"
import { pathOf } from "../http/RouteCatalogue.js"

/**
 * Scalar's options: its default fonts (Inter, JetBrains Mono) come from its own font host, so the page uses the
 * browser's fonts instead.
 */
export const scalarConfig: HttpApiScalar.ScalarConfig = { withDefaultFonts: false }

/** The route of the page at `path`: Scalar, its script inlined, with `scalarConfig`. */
export const docsPage = <Id extends string, Groups extends HttpApiGroup.Constraint>(
  api: HttpApi.HttpApi<Id, Groups>,
  path: `/${string}`
) => HttpApiScalar.layer(api, { path, scalar: scalarConfig })

/** Kept by a cache, used only after revalidation: the page changes when the server (or its document) does. */
const cacheControl = "no-cache"

/** The ETag of a page body, computed once per body: the route answers the same built body every time. */
const etags = new WeakMap<HttpBody.HttpBody, string>()
const etagOfBody = (body: HttpBody.HttpBody): string | undefined => {
  if (body._tag !== "Uint8Array") return undefined
  const known = etags.get(body)
  if (known !== undefined) return known
  const etag = etagOf(body.body)
  etags.set(body, etag)
  return etag
}

/** Wraps the application: a GET or HEAD of `path` answered 200 gets its ETag and Cache-Control, or a 304. */
export const docsCaching = (path: string) =>
<E, R>(
  app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest> =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const read = request.method === "GET" || request.method === "HEAD"
    if (!read || pathOf(request.url) !== path) return yield* app
    const response = yield* app
    const etag = response.status === 200 ? etagOfBody(response.body) : undefined
    if (etag === undefined) return response
    const headers = { etag, "cache-control": cacheControl }
    if (ifNoneMatchHolds(request.headers["if-none-match"], etag)) return HttpServerResponse.empty({ status: 304, headers })
    return HttpServerResponse.setHeaders(response, headers)
  })
