/** The master artists' use cases of the `Organiser` service (CONTRACT §12), over the artists' half of OrganiserArtists. */
import { Clock, Effect } from "effect"
import { type Body, checked } from "../../rules/bodyChecks.js"
import type { ValidationFailed } from "../../rules/errors.js"
import type { Actor } from "../../shared/Actor.js"
import type { Unavailable } from "../../shared/errors.js"
import type { CreatedKey, Page, PageRequest } from "../../shared/paging.js"
import { artistInput } from "./artistInput.js"
import type { AdminArtist, ArtistDetail } from "./ArtistModel.js"
import type { ArtistStore } from "./ArtistStore.js"
import { ArtistNotFound } from "./errors.js"

type E<A, X = never> = Effect.Effect<A, X | Unavailable>

export interface ArtistUseCases {
  readonly listArtists: (actor: Actor, page: PageRequest<CreatedKey>) => E<Page<AdminArtist>>
  readonly getArtist: (actor: Actor, id: string) => E<ArtistDetail, ArtistNotFound>
  readonly createArtist: (actor: Actor, body: Body) => E<AdminArtist, ValidationFailed>
  /** Soft delete: the artist's portals answer 410 from then on. */
  readonly deleteArtist: (actor: Actor, id: string) => E<void, ArtistNotFound>
}

export const makeArtistUseCases = (artists: ArtistStore): ArtistUseCases => ({
  listArtists: Effect.fn("Organiser.listArtists")(function*(actor: Actor, page: PageRequest<CreatedKey>) {
    return yield* artists.listArtists(actor.organisation_id, page)
  }),
  getArtist: Effect.fn("Organiser.getArtist")(function*(actor: Actor, id: string) {
    return yield* artists.findArtist(actor.organisation_id, id).pipe(Effect.flatMap(Effect.fromOption(() => new ArtistNotFound())))
  }),
  createArtist: Effect.fn("Organiser.createArtist")(function*(actor: Actor, body: Body) {
    const input = yield* checked(artistInput(body))
    return yield* artists.createArtist(actor, input.name, yield* Clock.currentTimeMillis)
  }),
  deleteArtist: Effect.fn("Organiser.deleteArtist")(function*(actor: Actor, id: string) {
    return yield* artists.deleteArtist(actor, id, yield* Clock.currentTimeMillis)
  })
})
