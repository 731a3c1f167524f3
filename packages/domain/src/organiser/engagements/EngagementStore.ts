/**
 * The engagements' half of the `OrganiserArtists` port (organiser/OrganiserArtists.ts): an organisation's
 * engagements and their portal links (CONTRACT §12), scoped by organisation, each write with its audit entry.
 */
import type { Effect, Option } from "effect"
import type { Actor } from "../../shared/Actor.js"
import type { Unavailable } from "../../shared/errors.js"
import type { CreatedKey, Page, PageRequest } from "../../shared/paging.js"
import type { ReferenceInvalid } from "../catalog/errors.js"
import type { AdminEngagement, EngagementDetail, EngagementInput } from "./EngagementModel.js"
import type { EngagementNotFound } from "./errors.js"

export interface EngagementStore {
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
}
