/**
 * Handlers of the artist-portal group: they call only the domain's `ArtistPortal` use cases, check the
 * section submit's body like the public routes do, and put the portal's RateLimit headers on every
 * answer from the rate-limit step on.
 */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import type { HttpServerRequest } from "effect/http"
import { ArtistPortal, chooseLanguage, type Limited, type PortalSectionView } from "@forms/domain"
import { answerInLanguage, languageRequestOf, varyByLanguage } from "../languages/requestLanguage.js"
import { Api } from "../Api.js"
import { readJsonBody } from "../http/readJsonBody.js"
import { decodeValuesBody } from "../publicForms/requestBodies.js"
import { clientOf } from "../http/clientIp.js"
import type { DomainError } from "../http/errorTable.js"
import { HttpConfig } from "../HttpConfig.js"
import { limitedAnswer } from "../http/rateLimitHeaders.js"
import { toPortalSectionWire, toPortalSummaryWire } from "./wire.js"

/** A portal answer in the `{ data }` envelope, with its RateLimit headers. */
const answer = <A, W, E extends DomainError, R>(effect: Effect.Effect<Limited<A>, E, R>, toWire: (data: A) => W) =>
  limitedAnswer(effect).pipe(Effect.map((data) => ({ data: toWire(data) })))

/** A section answer in the language chosen for the request among the advance form's (CONTRACT §19). */
const sectionAnswer = <E extends DomainError, R>(
  effect: Effect.Effect<Limited<PortalSectionView>, E, R>,
  request: HttpServerRequest.HttpServerRequest
) =>
  Effect.andThen(
    varyByLanguage,
    limitedAnswer(effect).pipe(Effect.flatMap((view) => {
      const { language } = chooseLanguage(view, languageRequestOf(request))
      return Effect.as(answerInLanguage(language), { data: toPortalSectionWire(view, language) })
    }))
  )

export const PortalHandlers = HttpApiBuilder.group(
  Api,
  "portal",
  Effect.fn(function*(handlers) {
    const portal = yield* ArtistPortal
    const config = yield* HttpConfig
    const client = (request: HttpServerRequest.HttpServerRequest) =>
      clientOf(request, config.trustProxyHops, config.exemptNetworks)

    return handlers
      .handle("summary", ({ params, request }) =>
        answer(portal.summary(params.token, client(request)), toPortalSummaryWire))
      .handle("section", ({ params, request }) =>
        sectionAnswer(portal.section(params.token, params.sectionId, client(request)), request))
      .handleRaw("submitSection", ({ params, request }) =>
        Effect.gen(function*() {
          // Request shape first (415, 413, 400, 422), before the token is looked up.
          const raw = yield* readJsonBody(request, config.maxBodyBytes)
          const body = yield* decodeValuesBody(raw, config.sizeLimits)
          return yield* sectionAnswer(portal.submitSection(params.token, params.sectionId, body.values, client(request)), request)
        }))
      .handleRaw("saveSection", ({ params, request }) =>
        Effect.gen(function*() {
          const raw = yield* readJsonBody(request, config.maxBodyBytes)
          const body = yield* decodeValuesBody(raw, config.sizeLimits)
          return yield* sectionAnswer(portal.saveSection(params.token, params.sectionId, body.values, client(request)), request)
        }))
  })
)
