/** The whole HTTP application as router layers: the API, /openapi.json, /docs and the global middleware. */
import { Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"
import { HttpApiBuilder, HttpApiScalar } from "effect/http-api"
import { AdminHandlers } from "./admin/AdminHandlers.js"
import { SubmissionsOutHandlers } from "./admin/SubmissionsOutHandlers.js"
import { WebhooksHandlers } from "./admin/WebhooksHandlers.js"
import { FormsHandlers } from "./admin/FormsHandlers.js"
import { OrganiserAuthLive } from "./admin/OrganiserAuth.js"
import { Api } from "./Api.js"
import { PortalHandlers } from "./handlers/PortalHandlers.js"
import { PublicFormsHandlers } from "./handlers/PublicFormsHandlers.js"
import { SystemHandlers } from "./handlers/SystemHandlers.js"
import { HttpConfig } from "./HttpConfig.js"
import { corsMiddleware } from "./pages/cors.js"
import { PagesHandlers } from "./pages/PagesHandlers.js"
import { withServers } from "./openApiShape.js"
import { requestMiddleware } from "./requestMiddleware.js"
import { RouteCatalogue } from "./RouteCatalogue.js"

export const openApiPath = "/openapi.json"
export const docsPath = "/docs"

export const routeCatalogue = RouteCatalogue.fromApi(Api, [
  { method: "GET", template: openApiPath },
  { method: "GET", template: docsPath }
])

// CORS wraps the request middleware, so that its 404/405/500 answers carry the CORS headers too.
const GlobalMiddleware = HttpRouter.use((router) =>
  Effect.gen(function*() {
    const config = yield* HttpConfig
    const cors = corsMiddleware(routeCatalogue, config.adminCorsOrigins)
    const requests = requestMiddleware(routeCatalogue)
    yield* router.addGlobalMiddleware((app) => cors(requests(app)))
  })
)

/**
 * Router layers of the application. Needs `PublicForms`, `ArtistPortal`, `Organiser`, `RateLimiter`,
 * `AdminConfig`, `HttpConfig`, `Readiness` and the platform services an HTTP server layer provides.
 */
const httpAppLayer = Layer.unwrap(Effect.map(HttpConfig, (config) => {
  // The definition as served: `servers` is where this server is reached (HttpConfig.publicBaseUrl).
  const api = withServers(Api, config.publicBaseUrl)
  return Layer.mergeAll(
    HttpApiBuilder.layer(api, { openapiPath: openApiPath }),
    HttpApiScalar.layer(api, { path: docsPath }),
    GlobalMiddleware
  )
})).pipe(
  Layer.provide([
    PublicFormsHandlers,
    PortalHandlers,
    SystemHandlers,
    AdminHandlers,
    FormsHandlers,
    SubmissionsOutHandlers,
    WebhooksHandlers,
    PagesHandlers
  ]),
  Layer.provide(OrganiserAuthLive.layer)
)

/** The application served by an `HttpServer` (e.g. `NodeHttpServer.layer`); logs are our own. */
// The router's default refuses path parameters over 100 characters as "no such route"; a long token or
// id must reach its own 404 (FORM_NOT_FOUND, SUBMISSION_NOT_FOUND, …) instead. Node caps the request line.
const httpAppServer = HttpRouter.serve(httpAppLayer, {
  disableLogger: true,
  disableListenLog: true,
  routerConfig: { maxParamLength: 65_536 }
})

/**
 * The application: `HttpApp.layer` (the routes, /openapi.json, /docs and the global middleware) and
 * `HttpApp.server` (that, served by an `HttpServer` such as `NodeHttpServer.layer`).
 */
export const HttpApp = { layer: httpAppLayer, server: httpAppServer } as const
