/**
 * Handlers of the artist-portal group: they call only the domain's `ArtistPortal` use cases, check the
 * section submit's body like the public routes do, and put the portal's RateLimit headers on every
 * answer from the rate-limit step on.
 */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { ArtistPortal, type PortalAnswer } from "@forms/domain"
import { Api } from "../Api.js"
import { readJsonBody } from "../body/readJsonBody.js"
import { decodeValuesBody } from "../body/requestBodies.js"
import { clientIp } from "../clientIp.js"
import { type DomainError, fromDomainError } from "../errorTable.js"
import { HttpConfig } from "../HttpConfig.js"
import { appendRateLimitHeaders, tapRateLimitHeaders } from "../rateLimitHeaders.js"
import { toPortalSectionWire, toPortalSummaryWire } from "../wire/Portal.js"

/**
 * Runs a portal use case: its limiter state becomes headers (on the success, or on a failure at or
 * after the limit step), its failure the wire error, its data the `{ data }` envelope.
 */
const answer = <A, W, E extends DomainError, R>(
  effect: Effect.Effect<PortalAnswer<A>, E, R>,
  toWire: (data: A) => W
) =>
  effect.pipe(
    tapRateLimitHeaders,
    Effect.mapError(fromDomainError),
    Effect.tap((result) => appendRateLimitHeaders(result.rateLimit)),
    Effect.map((result) => ({ data: toWire(result.data) }))
  )

export const PortalHandlers = HttpApiBuilder.group(
  Api,
  "portal",
  Effect.fn(function*(handlers) {
    const portal = yield* ArtistPortal
    const config = yield* HttpConfig

    return handlers
      .handle("summary", ({ params, request }) =>
        answer(portal.summary(params.token, clientIp(request, config.trustProxyHops)), toPortalSummaryWire))
      .handle("section", ({ params, request }) =>
        answer(
          portal.section(params.token, params.sectionId, clientIp(request, config.trustProxyHops)),
          toPortalSectionWire
        ))
      .handleRaw("submitSection", ({ params, request }) =>
        Effect.gen(function*() {
          // Request shape first (415, 413, 400, 422), before the token is looked up.
          const raw = yield* readJsonBody(request, config.maxBodyBytes)
          const body = yield* decodeValuesBody(raw, config.sizeLimits)
          const ip = clientIp(request, config.trustProxyHops)
          return yield* answer(
            portal.submitSection(params.token, params.sectionId, body.values, ip),
            toPortalSectionWire
          )
        }))
  })
)
