/**
 * The artists' half of the `OrganiserArtists` port (organiser/OrganiserArtists.ts): an organisation's master
 * artists (CONTRACT §12), scoped by organisation, each write with its audit entry.
 */
import type { Effect, Option } from "effect"
import type { Actor } from "../../shared/Actor.js"
import type { Unavailable } from "../../shared/errors.js"
import type { CreatedKey, Page, PageRequest } from "../../shared/paging.js"
import type { AdminArtist, ArtistDetail } from "./ArtistModel.js"
import type { ArtistNotFound } from "./errors.js"

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
