/**
 * CORS. The public form routes, the portal routes and `/embed.js` answer every request,
 * errors included, to any origin, without credentials. Organiser routes (`/admin`) answer only the
 * origins of ADMIN_CORS_ORIGINS, and their preflight is answered here, before authentication. Every organiser
 * answer varies by `Origin` (a listed origin's, an unlisted one's, one without the header): a shared cache must
 * not hand one origin's answer, with or without its CORS headers, to another.
 */
import { Effect } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { requestIdFor } from "./requestId.js"
import { pathOf, type RouteCatalogue } from "./RouteCatalogue.js"

const exposed = "x-request-id, Retry-After, RateLimit, RateLimit-Policy"
const publicHeaders = "content-type, x-request-id"
const adminHeaders = "authorization, if-match, content-type, x-request-id"
/** Methods a preflight of an organiser path no route knows yet is told (the route itself answers 404). */
const adminMethods = ["GET", "POST", "PUT", "PATCH", "DELETE"]

type Policy =
  | { readonly _tag: "Public" }
  | { readonly _tag: "Admin"; readonly origin: string }
  | { readonly _tag: "None" }

const isPublicPath = (path: string): boolean =>
  path === "/embed.js" || path.startsWith("/public/forms/") || path.startsWith("/p/artist/")

const isAdminPath = (path: string): boolean => path === "/admin" || path.startsWith("/admin/")

/** An origin as browsers send it: scheme, host and port, lower-cased, without a trailing slash. */
export const normaliseOrigin = (origin: string): string => origin.trim().replace(/\/+$/, "").toLowerCase()

const policyOf = (path: string, origin: string | undefined, adminOrigins: ReadonlySet<string>): Policy => {
  if (isPublicPath(path)) return { _tag: "Public" }
  if (isAdminPath(path) && origin !== undefined && adminOrigins.has(normaliseOrigin(origin))) {
    return { _tag: "Admin", origin }
  }
  return { _tag: "None" }
}

const answerHeaders = (policy: Policy): Record<string, string> =>
  policy._tag === "Public"
    ? { "access-control-allow-origin": "*", "access-control-expose-headers": exposed }
    : policy._tag === "Admin"
    ? { "access-control-allow-origin": policy.origin, "access-control-expose-headers": exposed }
    : {}

/** `Vary` with `Origin` among its names, the names the response had kept. */
const varyingByOrigin = (response: HttpServerResponse.HttpServerResponse): HttpServerResponse.HttpServerResponse => {
  const names = (response.headers["vary"] ?? "").split(",").map((name) => name.trim()).filter((name) => name !== "")
  if (names.some((name) => name === "*" || name.toLowerCase() === "origin")) return response
  return HttpServerResponse.setHeader(response, "vary", [...names, "Origin"].join(", "))
}

const methodsOf = (routes: RouteCatalogue, url: string, admin: boolean): ReadonlyArray<string> => {
  // OPTIONS is no route's method, so the catalogue answers with the methods the path allows.
  const match = routes.match("OPTIONS", url)
  if (match._tag === "MethodNotAllowed") return [...match.allow, "OPTIONS"]
  return admin ? [...adminMethods, "OPTIONS"] : ["GET", "HEAD", "OPTIONS"]
}

/**
 * Wraps the whole application (outside the request middleware, so its 404/405/500 answers get the headers
 * too). A preflight (`OPTIONS` with `Access-Control-Request-Method`) on a CORS path is answered 204 here.
 */
export const corsMiddleware = (routes: RouteCatalogue, adminCorsOrigins: ReadonlyArray<string>) => {
  const adminOrigins = new Set(adminCorsOrigins.map(normaliseOrigin))
  return <E, R>(
    app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
  ): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest> =>
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const path = pathOf(request.url)
      const policy = policyOf(path, request.headers["origin"], adminOrigins)
      const vary = isAdminPath(path) ? varyingByOrigin : (response: HttpServerResponse.HttpServerResponse) => response
      if (policy._tag === "None") return vary(yield* app)
      const preflight = request.method === "OPTIONS" && request.headers["access-control-request-method"] !== undefined
      if (preflight) {
        return vary(HttpServerResponse.empty({
          status: 204,
          headers: {
            ...answerHeaders(policy),
            "access-control-allow-methods": methodsOf(routes, request.url, policy._tag === "Admin").join(", "),
            "access-control-allow-headers": policy._tag === "Admin" ? adminHeaders : publicHeaders,
            "access-control-max-age": "600",
            "x-request-id": requestIdFor(request.headers["x-request-id"])
          }
        }))
      }
      const response = yield* app
      return vary(HttpServerResponse.setHeaders(response, answerHeaders(policy)))
    })
}
