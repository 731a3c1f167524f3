/**
 * Master artists as the organiser sees them (CONTRACT §12), in one file as the house's rule for an organiser
 * feature asks: its records (one Schema each), its half of the `OrganiserArtists` port (organiser/OrganiserArtists.ts)
 * and its use cases of the `Organiser` service. Its errors are in `errors.ts`, the member checks of a body in
 * `artistInput.ts`.
 */
import { Clock, Effect, Schema } from "effect"
import type { Option } from "effect"
import { type Body, checked } from "../../rules/bodyChecks.js"
import type { ValidationFailed } from "../../rules/errors.js"
import type { Actor } from "../../shared/Actor.js"
import type { Unavailable } from "../../shared/errors.js"
import type { CreatedKey, Page, PageRequest } from "../../shared/paging.js"
import { artistInput } from "./artistInput.js"
import { ArtistNotFound } from "./errors.js"

// Records

export const AdminArtist = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  /** Epoch ms of the soft delete, or null. */
  deleted_at: Schema.NullOr(Schema.Number),
  created_at: Schema.Number
})
export type AdminArtist = typeof AdminArtist.Type

/** An artist with what §5 applied to it from the portal. */
export const ArtistDetail = Schema.Struct({
  ...AdminArtist.fields,
  profile: Schema.Record(Schema.String, Schema.Unknown)
})
export type ArtistDetail = typeof ArtistDetail.Type

export const artistKeyOf = (artist: AdminArtist): CreatedKey => ({ created_at: artist.created_at, id: artist.id })

// Port: the artists' half of OrganiserArtists, scoped by organisation, each write with its audit entry

export interface ArtistStore {
  /** Newest first (`created_at`, then `id`); soft-deleted artists included. */
  readonly listArtists: (organisationId: string, page: PageRequest<CreatedKey>) => Effect.Effect<Page<AdminArtist>, Unavailable>
  readonly findArtist: (organisationId: string, id: string) => Effect.Effect<Option.Option<ArtistDetail>, Unavailable>
  readonly createArtist: (actor: Actor, name: string, at: number) => Effect.Effect<AdminArtist, Unavailable>
  /**
   * Soft delete: `deleted_at` = `at` (its portals answer 410). Deleting a deleted artist keeps its
   * first `deleted_at` and writes nothing (no audit entry).
   */
  readonly deleteArtist: (actor: Actor, id: string, at: number) => Effect.Effect<void, ArtistNotFound | Unavailable>
}

// Use cases of the Organiser service

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
