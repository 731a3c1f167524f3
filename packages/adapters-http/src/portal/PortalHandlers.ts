/**
 * Handlers of the artist-portal group: they call only the domain's `ArtistPortal` use cases, check the
 * section submit's body like the public routes do, and put the portal's RateLimit headers on every
 * answer from the rate-limit step on.
 */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import type { HttpServerRequest } from "effect/http"
import { type AnswerLanguage, ArtistPortal, chooseLanguage, type Limited, type PortalSectionView } from "@forms/domain"
import { inChosenLanguage } from "../languages/inChosenLanguage.js"
import { languageRequestOf } from "../languages/requestLanguage.js"
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

/**
 * A section answer in the language chosen for the request among the advance form's (CONTRACT §19): its texts, its
 * errors' messages and `Content-Language`.
 */
const sectionAnswer = <E extends DomainError, R>(
  request: HttpServerRequest.HttpServerRequest,
  run: (asked: AnswerLanguage) => Effect.Effect<Limited<PortalSectionView>, E, R>
) =>
  inChosenLanguage(request, (asked) => limitedAnswer(run(asked))).pipe(Effect.map((view) => {
    const { language } = chooseLanguage(view, languageRequestOf(request))
    return { data: toPortalSectionWire(view, language) }
  }))

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
        inChosenLanguage(request, (asked) => answer(portal.summary(params.token, client(request), asked), toPortalSummaryWire)))
      .handle("section", ({ params, request }) =>
        sectionAnswer(request, (asked) => portal.section(params.token, params.sectionId, client(request), asked)))
      .handleRaw("submitSection", ({ params, request }) =>
        Effect.gen(function*() {
          // Request shape first (415, 413, 400, 422), before the token is looked up.
          const raw = yield* readJsonBody(request, config.maxBodyBytes)
          const body = yield* decodeValuesBody(raw, config.sizeLimits)
          return yield* sectionAnswer(
            request,
            (asked) => portal.submitSection(params.token, params.sectionId, body.values, client(request), asked)
          )
        }))
      .handleRaw("saveSection", ({ params, request }) =>
        Effect.gen(function*() {
          const raw = yield* readJsonBody(request, config.maxBodyBytes)
          const body = yield* decodeValuesBody(raw, config.sizeLimits)
          return yield* sectionAnswer(
            request,
            (asked) => portal.saveSection(params.token, params.sectionId, body.values, client(request), asked)
          )
        }))
  })
)
