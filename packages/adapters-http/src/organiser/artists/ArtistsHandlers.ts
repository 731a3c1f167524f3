/**
 * Handlers of the `artists` group: the body or query, the `admin` limit, then the domain's `Organiser` use
 * cases, answering what the endpoints' schemas encode.
 */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { artistKeyOf, Organiser } from "@forms/domain"
import { Api } from "../../Api.js"
import { wireErrors } from "../../http/errorTable.js"
import { createdCodec, listBody } from "../../http/paging.js"
import { HttpConfig } from "../../HttpConfig.js"
import { bodyThenLimit, limitedActor, pageThenLimit } from "../organiserSteps.js"
import { toArtistDetailWire, toArtistWire } from "./ArtistsGroup.js"

export const ArtistsHandlers = HttpApiBuilder.group(
  Api,
  "artists",
  Effect.fn(function*(handlers) {
    const organiser = yield* Organiser
    const { maxBodyBytes } = yield* HttpConfig

    return handlers
      .handle("listArtists", ({ request }) =>
        Effect.gen(function*() {
          const { actor, page } = yield* pageThenLimit(request, createdCodec)
          return listBody(yield* wireErrors(organiser.listArtists(actor, page)), artistKeyOf, createdCodec, toArtistWire)
        }))
      .handleRaw("createArtist", ({ request }) =>
        Effect.gen(function*() {
          const { actor, body } = yield* bodyThenLimit(request, maxBodyBytes)
          return { data: toArtistWire(yield* wireErrors(organiser.createArtist(actor, body))) }
        }))
      .handle("getArtist", ({ params }) =>
        Effect.gen(function*() {
          const actor = yield* limitedActor
          return { data: toArtistDetailWire(yield* wireErrors(organiser.getArtist(actor, params.artistId))) }
        }))
      .handle("deleteArtist", ({ params }) =>
        Effect.gen(function*() {
          const actor = yield* limitedActor
          yield* wireErrors(organiser.deleteArtist(actor, params.artistId))
        }))
  })
)
