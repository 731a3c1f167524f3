/**
 * Handlers of the `engagements` group: the body or query, the `admin` limit, then the domain's `Organiser` use
 * cases, answering what the endpoints' schemas encode.
 */
import { randomBytes } from "node:crypto"
import { Effect, Result } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { engagementKeyOf, Organiser } from "@forms/domain"
import { Api } from "../../Api.js"
import { apiError, wireErrors } from "../../http/errorTable.js"
import { createdCodec, listBody } from "../../http/paging.js"
import { HttpConfig } from "../../HttpConfig.js"
import { publicBaseOf } from "../AdminConfig.js"
import { bodyThenLimit, limitedActor, pageThenLimit } from "../organiserSteps.js"
import { overdueOf } from "./engagementsQuery.js"
import { toEngagementDetailWire, toEngagementWire } from "./EngagementsGroup.js"

export const EngagementsHandlers = HttpApiBuilder.group(
  Api,
  "engagements",
  Effect.fn(function*(handlers) {
    const organiser = yield* Organiser
    const { maxBodyBytes } = yield* HttpConfig

    return handlers
      .handle("listEngagements", ({ request }) =>
        Effect.gen(function*() {
          // The query first (400), then the limit: as every organiser list.
          const overdue = overdueOf(request.url)
          if (Result.isFailure(overdue)) return yield* apiError("InvalidQuery")
          const { actor, page } = yield* pageThenLimit(request, createdCodec)
          const result = yield* wireErrors(organiser.listEngagements(actor, page, { overdue: overdue.success }))
          return listBody(result, engagementKeyOf, createdCodec, toEngagementWire)
        }))
      .handleRaw("createEngagement", ({ request }) =>
        Effect.gen(function*() {
          const { actor, body } = yield* bodyThenLimit(request, maxBodyBytes)
          return { data: toEngagementWire(yield* wireErrors(organiser.createEngagement(actor, body))) }
        }))
      .handle("getEngagement", ({ params }) =>
        Effect.gen(function*() {
          const actor = yield* limitedActor
          return { data: toEngagementDetailWire(yield* wireErrors(organiser.getEngagement(actor, params.engagementId))) }
        }))
      .handleRaw("updateEngagement", ({ params, request }) =>
        Effect.gen(function*() {
          const { actor, body } = yield* bodyThenLimit(request, maxBodyBytes)
          return { data: toEngagementWire(yield* wireErrors(organiser.updateEngagement(actor, params.engagementId, body))) }
        }))
      .handleRaw("updateAdvanceSection", ({ params, request }) =>
        Effect.gen(function*() {
          const { actor, body } = yield* bodyThenLimit(request, maxBodyBytes)
          const updated = organiser.updateAdvanceSection(actor, params.engagementId, params.sectionId, body)
          return { data: toEngagementWire(yield* wireErrors(updated)) }
        }))
      .handleRaw("portalLink", ({ params, request }) =>
        Effect.gen(function*() {
          const { actor, body } = yield* bodyThenLimit(request, maxBodyBytes)
          // 32 random bytes in base64url; only its hash is stored, so it is shown this once (and mailed to
          // `send_to` when the body names one: the page's URL).
          const token = randomBytes(32).toString("base64url")
          const base = yield* publicBaseOf(request)
          const pageUrl = `${base}/portal/${token}`
          yield* wireErrors(organiser.issuePortalLink(actor, params.engagementId, token, { body, pageUrl }))
          return { data: { portal_url: `${base}/p/artist/${token}`, page_url: pageUrl } }
        }))
  })
)
