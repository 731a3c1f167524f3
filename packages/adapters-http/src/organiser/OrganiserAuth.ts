/**
 * The bearer security of the organiser routes: the definition (shared with the typed
 * client and the document) and its server side, which answers 401 with `WWW-Authenticate: Bearer`.
 * The key is never logged: it travels as a Redacted value into the use case, which hashes it.
 */
import { Context, Effect, Layer, Redacted } from "effect"
import { HttpApiMiddleware, HttpApiSecurity, OpenApi } from "effect/http-api"
import { type Actor, Organiser } from "@forms/domain"
import { apiError } from "../http/errorTable.js"
import { appendHeaders } from "../http/rateLimitHeaders.js"
import { ApiUnauthenticated, ApiUnavailable } from "../http/ErrorEnvelope.js"

/** The actor of the request's key, provided to the organiser handlers. */
export class CurrentActor extends Context.Service<CurrentActor, Actor>()("@forms/adapters-http/CurrentActor") {}

export class OrganiserAuth extends HttpApiMiddleware.Service<OrganiserAuth, { provides: CurrentActor }>()(
  "@forms/adapters-http/OrganiserAuth",
  {
    security: {
      bearer: HttpApiSecurity.bearer.pipe(
        HttpApiSecurity.annotate(OpenApi.Description, "An organiser API key (`fok_…`) from `pnpm cli api-key create`.")
      )
    },
    error: [ApiUnauthenticated, ApiUnavailable]
  }
) {}

/** The server side: needs the `Organiser` use cases. */
const organiserAuthLayer = Layer.effect(
  OrganiserAuth,
  Effect.gen(function*() {
    const organiser = yield* Organiser
    return OrganiserAuth.of({
      bearer: (httpEffect, { credential }) =>
        organiser.authenticate(Redacted.value(credential)).pipe(
          Effect.catchTags({
            Unauthenticated: () =>
              appendHeaders({ "www-authenticate": "Bearer" }).pipe(Effect.andThen(Effect.fail(apiError("Unauthenticated")))),
            Unavailable: () => Effect.fail(apiError("Unavailable"))
          }),
          Effect.flatMap((actor) => Effect.provideService(httpEffect, CurrentActor, actor))
        )
    })
  })
)

/** The bearer check over the domain's `Organiser`: `OrganiserAuthLive.layer`. */
export const OrganiserAuthLive = { layer: organiserAuthLayer } as const
