/** Handlers of the `engagements` group: the body or query, the `admin` limit, then the domain's `Organiser` use cases. */
import { randomBytes } from "node:crypto"
import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { engagementKeyOf, Organiser } from "@forms/domain"
import { Api } from "../../Api.js"
import { type DomainError, fromDomainError } from "../../http/errorTable.js"
import { createdCodec, listBody } from "../../http/paging.js"
import { HttpConfig } from "../../HttpConfig.js"
import { AdminConfig } from "../AdminConfig.js"
import { bodyThenLimit, limitedActor, pageThenLimit } from "../organiserSteps.js"
import { toEngagementDetailWire, toEngagementWire } from "./wire.js"

const json = (data: unknown, status = 200) => HttpServerResponse.jsonUnsafe({ data }, { status })
const listJson = (body: unknown) => HttpServerResponse.jsonUnsafe(body)

const domain = <A, E extends DomainError, R>(effect: Effect.Effect<A, E, R>) => Effect.mapError(effect, fromDomainError)

export const EngagementsHandlers = HttpApiBuilder.group(
  Api,
  "engagements",
  Effect.fn(function*(handlers) {
    const organiser = yield* Organiser
    const config = yield* HttpConfig
    const adminConfig = yield* AdminConfig

    return handlers
      .handleRaw("listEngagements", ({ request }) =>
        Effect.gen(function*() {
          const { actor, page } = yield* pageThenLimit(request, createdCodec)
          const result = yield* domain(organiser.listEngagements(actor, page))
          return listJson(listBody(result, engagementKeyOf, createdCodec, toEngagementWire))
        }))
      .handleRaw("createEngagement", ({ request }) =>
        Effect.gen(function*() {
          const { actor, body } = yield* bodyThenLimit(request, config.maxBodyBytes)
          return json(toEngagementWire(yield* domain(organiser.createEngagement(actor, body))), 201)
        }))
      .handleRaw("getEngagement", ({ params }) =>
        Effect.gen(function*() {
          const actor = yield* limitedActor
          return json(toEngagementDetailWire(yield* domain(organiser.getEngagement(actor, params.engagementId))))
        }))
      .handleRaw("portalLink", ({ params, request }) =>
        Effect.gen(function*() {
          const { actor } = yield* bodyThenLimit(request, config.maxBodyBytes)
          // 32 random bytes in base64url (CONTRACT §11); only its hash is stored, so it is shown this once.
          const token = randomBytes(32).toString("base64url")
          yield* domain(organiser.issuePortalLink(actor, params.engagementId, token))
          const base = adminConfig.publicBaseUrl ?? `http://${request.headers["host"] ?? "localhost"}`
          return json({ portal_url: `${base}/p/artist/${token}`, page_url: `${base}/portal/${token}` })
        }))
  })
)
