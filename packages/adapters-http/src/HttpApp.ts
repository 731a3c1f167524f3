/** The whole HTTP application as router layers: the API, /openapi.json, /docs and the global middleware. */
import { Effect, Layer } from "effect"
import { constTrue } from "effect/Function"
import { HttpMiddleware, HttpRouter } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "./Api.js"
import { corsMiddleware } from "./http/cors.js"
import { withServers } from "./http/openApiShape.js"
import { requestMiddleware } from "./http/requestMiddleware.js"
import { RouteCatalogue } from "./http/RouteCatalogue.js"
import { FilesAdminHandlers } from "./files/FilesAdminHandlers.js"
import { MessagesHandlers } from "./messages/MessagesHandlers.js"
import { FilesHandlers } from "./files/FilesHandlers.js"
import { HttpConfig } from "./HttpConfig.js"
import { ArtistsHandlers } from "./organiser/artists/ArtistsHandlers.js"
import { CatalogHandlers } from "./organiser/catalog/CatalogHandlers.js"
import { EngagementsHandlers } from "./organiser/engagements/EngagementsHandlers.js"
import { FormsHandlers } from "./organiser/forms/FormsHandlers.js"
import { OrganiserAuthLive } from "./organiser/OrganiserAuth.js"
import { notFoundPageFor } from "./pages/pageHtml.js"
import { PagesHandlers } from "./pages/PagesHandlers.js"
import { PortalHandlers } from "./portal/PortalHandlers.js"
import { ManageHandlers } from "./shifts/ManageHandlers.js"
import { PublicFormsHandlers } from "./publicForms/PublicFormsHandlers.js"
import { SubmissionsOutHandlers } from "./submissionsOut/SubmissionsOutHandlers.js"
import { docsCaching, docsPage } from "./system/docsPage.js"
import { SystemHandlers } from "./system/SystemHandlers.js"
import { WebhooksHandlers } from "./webhooks/WebhooksHandlers.js"

export const openApiPath = "/openapi.json"
export const docsPath = "/docs"

export const routeCatalogue = RouteCatalogue.fromApi(Api, [
  { method: "GET", template: openApiPath },
  { method: "GET", template: docsPath }
])

// CORS wraps the request middleware, so that its 404/405/500 answers carry the CORS headers too; the docs page's
// ETag is set nearest the routes, on the page its route answers.
const GlobalMiddleware = HttpRouter.use((router) =>
  Effect.gen(function*() {
    const config = yield* HttpConfig
    const cors = corsMiddleware(routeCatalogue, config.adminCorsOrigins)
    const requests = requestMiddleware(routeCatalogue, notFoundPageFor)
    const docs = docsCaching(docsPath)
    yield* router.addGlobalMiddleware((app) => cors(requests(docs(app))))
  })
)

/**
 * Router layers of the application. Needs the use cases (`PublicForms`, `Files`, `VolunteerShifts`, `ArtistPortal`, `Organiser`,
 * `FormAuthoring`, `SubmissionsOut`, `Webhooks`, `OrganiserMessages`), `RateLimiter`, `AdminConfig`, `HttpConfig`, `Readiness` and the
 * platform services an HTTP server layer provides.
 */
const httpAppLayer = Layer.unwrap(Effect.map(HttpConfig, (config) => {
  // The definition as served: `servers` is where this server is reached (HttpConfig.publicBaseUrl).
  const api = withServers(Api, config.publicBaseUrl)
  return Layer.mergeAll(
    HttpApiBuilder.layer(api, { openapiPath: openApiPath }),
    docsPage(api, docsPath),
    GlobalMiddleware
  )
})).pipe(
  Layer.provide([
    PublicFormsHandlers,
    FilesHandlers,
    ManageHandlers,
    PortalHandlers,
    SystemHandlers,
    CatalogHandlers,
    ArtistsHandlers,
    EngagementsHandlers,
    FormsHandlers,
    SubmissionsOutHandlers,
    FilesAdminHandlers,
    WebhooksHandlers,
    MessagesHandlers,
    PagesHandlers
  ]),
  Layer.provide(OrganiserAuthLive.layer)
)

/** The application served by an `HttpServer` (e.g. `NodeHttpServer.layer`); logs are our own. */
// The router's default refuses path parameters over 100 characters as "no such route"; a long token or
// id must reach its own 404 (FORM_NOT_FOUND, SUBMISSION_NOT_FOUND, …) instead. Node caps the request line.
// Effect's own request tracer records the URL (a path holds tokens), the user agent and the client address:
// it is off, and the request middleware makes the request's span instead (operations/requestSpan.ts).
const httpAppServer = HttpRouter.serve(httpAppLayer, {
  disableLogger: true,
  disableListenLog: true,
  routerConfig: { maxParamLength: 65_536 }
}).pipe(Layer.provide(Layer.succeed(HttpMiddleware.TracerDisabledWhen)(constTrue)))

/**
 * The application: `HttpApp.layer` (the routes, /openapi.json, /docs and the global middleware) and
 * `HttpApp.server` (that, served by an `HttpServer` such as `NodeHttpServer.layer`).
 */
export const HttpApp = { layer: httpAppLayer, server: httpAppServer } as const
