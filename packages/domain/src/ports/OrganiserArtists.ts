/** Port: an organisation's master artists (CONTRACT §12), scoped by organisation, writes with their audit entry. */
import { Context, type Effect, type Option } from "effect"
import type { Unavailable } from "../Errors.js"
import type { ArtistNotFound } from "../organiser/OrganiserErrors.js"
import type { Actor, AdminArtist, ArtistDetail, CreatedKey, Page, PageRequest } from "../organiser/OrganiserModel.js"

export class OrganiserArtists extends Context.Service<OrganiserArtists, {
  /** Newest first (`created_at`, then `id`); soft-deleted artists included. */
  readonly listArtists: (organisationId: string, page: PageRequest<CreatedKey>) => Effect.Effect<Page<AdminArtist>, Unavailable>
  readonly findArtist: (organisationId: string, id: string) => Effect.Effect<Option.Option<ArtistDetail>, Unavailable>
  readonly createArtist: (actor: Actor, name: string, at: number) => Effect.Effect<AdminArtist, Unavailable>
  /**
   * Soft delete: `deleted_at` = `at` (its portals answer 410). Deleting a deleted artist keeps its
   * first `deleted_at` and writes nothing (no audit entry).
   */
  readonly deleteArtist: (actor: Actor, id: string, at: number) => Effect.Effect<void, ArtistNotFound | Unavailable>
}>()("@forms/domain/OrganiserArtists") {}
