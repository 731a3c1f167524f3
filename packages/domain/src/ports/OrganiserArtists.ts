/**
 * Port: an organisation's master artists and engagements (CONTRACT §12), scoped by organisation, writes
 * with their audit entry.
 */
import { Context, type Effect, type Option } from "effect"
import type { Unavailable } from "../shared/errors.js"
import type { ArtistNotFound, EngagementNotFound, ReferenceInvalid } from "../organiser/OrganiserErrors.js"
import type {
  Actor,
  AdminArtist,
  AdminEngagement,
  ArtistDetail,
  CreatedKey,
  EngagementDetail,
  EngagementInput,
  Page,
  PageRequest
} from "../organiser/OrganiserModel.js"

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
  /** Newest first; advance sections by position, then id. */
  readonly listEngagements: (
    organisationId: string,
    page: PageRequest<CreatedKey>
  ) => Effect.Effect<Page<AdminEngagement>, Unavailable>
  /**
   * A new engagement (no portal token) with its advance sections (status `pending`), ids generated as
   * UUIDs, and `engagement.created`, in one step. `event_id` must name an event of the actor's
   * organisation and `master_artist_id` one of its artists that is not soft-deleted (both held against a
   * concurrent delete), otherwise ReferenceInvalid on that member and nothing is written.
   */
  readonly createEngagement: (
    actor: Actor,
    input: EngagementInput,
    at: number
  ) => Effect.Effect<AdminEngagement, ReferenceInvalid | Unavailable>
  readonly findEngagement: (organisationId: string, id: string) => Effect.Effect<Option.Option<EngagementDetail>, Unavailable>
  /**
   * Makes `token` the engagement's portal token (the adapter stores its SHA-256 only; the previous token
   * stops working) and records `engagement.portal_link_created`. `actor` undefined: the CLI, unscoped,
   * audited under the engagement's organisation without a key.
   */
  readonly issuePortalToken: (
    actor: Actor | undefined,
    engagementId: string,
    token: string,
    at: number
  ) => Effect.Effect<void, EngagementNotFound | Unavailable>
}>()("@forms/domain/OrganiserArtists") {}
