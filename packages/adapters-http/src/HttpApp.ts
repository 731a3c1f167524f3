/** The whole HTTP application as router layers: the API, /openapi.json, /docs and the global middleware. */
import { Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"
import { HttpApiBuilder, HttpApiScalar } from "effect/http-api"
import { Api } from "./Api.js"
import { PortalHandlers } from "./handlers/PortalHandlers.js"
import { PublicFormsHandlers } from "./handlers/PublicFormsHandlers.js"
import { SystemHandlers } from "./handlers/SystemHandlers.js"
import { HttpConfig } from "./HttpConfig.js"
import { withServers } from "./openApiShape.js"
import { requestMiddleware } from "./requestMiddleware.js"
import { RouteCatalogue } from "./RouteCatalogue.js"

export const openApiPath = "/openapi.json"
export const docsPath = "/docs"

export const routeCatalogue = RouteCatalogue.fromApi(Api, [
  { method: "GET", template: openApiPath },
  { method: "GET", template: docsPath }
])

const GlobalMiddleware = HttpRouter.use((router) => router.addGlobalMiddleware(requestMiddleware(routeCatalogue)))

/**
 * Router layers of the application. Needs `PublicForms`, `ArtistPortal`, `HttpConfig`, `Readiness` and the
 * platform services an HTTP server layer provides.
 */
export const HttpAppLayer = Layer.unwrap(Effect.map(HttpConfig, (config) => {
  // The definition as served: `servers` is where this server is reached (HttpConfig.publicBaseUrl).
  const api = withServers(Api, config.publicBaseUrl)
  return Layer.mergeAll(
    HttpApiBuilder.layer(api, { openapiPath: openApiPath }),
    HttpApiScalar.layer(api, { path: docsPath }),
    GlobalMiddleware
  )
})).pipe(Layer.provide([PublicFormsHandlers, PortalHandlers, SystemHandlers]))

/** The application served by an `HttpServer` (e.g. `NodeHttpServer.layer`); logs are our own. */
// The router's default refuses path parameters over 100 characters as "no such route"; a long token or
// id must reach its own 404 (FORM_NOT_FOUND, SUBMISSION_NOT_FOUND, …) instead. Node caps the request line.
export const HttpAppServer = HttpRouter.serve(HttpAppLayer, {
  disableLogger: true,
  disableListenLog: true,
  routerConfig: { maxParamLength: 65_536 }
})
