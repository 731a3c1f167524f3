/** Handlers of the `artists` group: the body or query, the `admin` limit, then the domain's `Organiser` use cases. */
import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { artistKeyOf, Organiser } from "@forms/domain"
import { Api } from "../../Api.js"
import { type DomainError, fromDomainError } from "../../http/errorTable.js"
import { createdCodec, listBody } from "../../http/paging.js"
import { HttpConfig } from "../../HttpConfig.js"
import { bodyThenLimit, limitedActor, pageThenLimit } from "../organiserSteps.js"
import { toArtistDetailWire, toArtistWire } from "./wire.js"

const json = (data: unknown, status = 200) => HttpServerResponse.jsonUnsafe({ data }, { status })
const listJson = (body: unknown) => HttpServerResponse.jsonUnsafe(body)
const noContent = HttpServerResponse.empty({ status: 204 })

const domain = <A, E extends DomainError, R>(effect: Effect.Effect<A, E, R>) => Effect.mapError(effect, fromDomainError)

export const ArtistsHandlers = HttpApiBuilder.group(
  Api,
  "artists",
  Effect.fn(function*(handlers) {
    const organiser = yield* Organiser
    const config = yield* HttpConfig

    return handlers
      .handleRaw("listArtists", ({ request }) =>
        Effect.gen(function*() {
          const { actor, page } = yield* pageThenLimit(request, createdCodec)
          const result = yield* domain(organiser.listArtists(actor, page))
          return listJson(listBody(result, artistKeyOf, createdCodec, toArtistWire))
        }))
      .handleRaw("createArtist", ({ request }) =>
        Effect.gen(function*() {
          const { actor, body } = yield* bodyThenLimit(request, config.maxBodyBytes)
          return json(toArtistWire(yield* domain(organiser.createArtist(actor, body))), 201)
        }))
      .handleRaw("getArtist", ({ params }) =>
        Effect.gen(function*() {
          const actor = yield* limitedActor
          return json(toArtistDetailWire(yield* domain(organiser.getArtist(actor, params.artistId))))
        }))
      .handleRaw("deleteArtist", ({ params }) =>
        Effect.gen(function*() {
          const actor = yield* limitedActor
          yield* domain(organiser.deleteArtist(actor, params.artistId))
          return noContent
        }))
  })
)
