/**
 * The engagements' half of the `OrganiserArtists` port (organiser/OrganiserArtists.ts): an organisation's
 * engagements and their portal links (CONTRACT §12), scoped by organisation, each write with its audit entry.
 */
import type { Effect, Option } from "effect"
import type { Actor } from "../../shared/Actor.js"
import type { Unavailable } from "../../shared/errors.js"
import type { CreatedKey, Page, PageRequest } from "../../shared/paging.js"
import type { ReferenceInvalid } from "../catalog/errors.js"
import type { NewOutboxEvent } from "../../events/Outbox.js"
import type { NewMessage } from "../../messages/Message.js"
import type { SchedulePatch, SectionSchedule } from "../../portal/SectionLock.js"
import type {
  EngagementDetailRecord,
  EngagementFilter,
  EngagementInput,
  EngagementPatch,
  EngagementRecord
} from "./EngagementModel.js"
import type { AdvanceSectionNotFound, EngagementNotFound } from "./errors.js"

/** The events a section's change records, decided by the domain from the schedule before and after it. */
export type ScheduleEvents = (before: SectionSchedule, after: SectionSchedule) => ReadonlyArray<NewOutboxEvent>

export interface EngagementStore {
  /**
   * Newest first; advance sections by position, then id. With `filter.overdue_at`, only the engagements with a
   * pending section whose `due_at` is before that instant.
   */
  readonly listEngagements: (
    organisationId: string,
    page: PageRequest<CreatedKey>,
    filter: EngagementFilter
  ) => Effect.Effect<Page<EngagementRecord>, Unavailable>
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
  ) => Effect.Effect<EngagementRecord, ReferenceInvalid | Unavailable>
  readonly findEngagement: (
    organisationId: string,
    id: string
  ) => Effect.Effect<Option.Option<EngagementDetailRecord>, Unavailable>
  /** Sets the members of `patch` and records `engagement.updated`, in one step. */
  readonly updateEngagement: (
    actor: Actor,
    id: string,
    patch: EngagementPatch,
    at: number
  ) => Effect.Effect<EngagementRecord, EngagementNotFound | Unavailable>
  /**
   * Sets the members of `patch` on the engagement's section, records `engagement_section.updated` (naming the
   * engagement) and the events `events` decides from the section's schedule before and after, in one step that
   * holds the section's row (so it is ordered with the section's writes, which check its lock in their own
   * statement). EngagementNotFound before AdvanceSectionNotFound.
   */
  readonly updateAdvanceSection: (
    actor: Actor,
    engagementId: string,
    sectionId: string,
    patch: SchedulePatch,
    at: number,
    events: ScheduleEvents
  ) => Effect.Effect<EngagementRecord, EngagementNotFound | AdvanceSectionNotFound | Unavailable>
  /**
   * Makes `token` the engagement's portal token (the adapter stores its SHA-256 only; the previous token
   * stops working) and records `engagement.portal_link_created` and `messages` (the mailed link, belonging to the
   * engagement), in one step. `actor` undefined: the CLI, unscoped, audited under the engagement's organisation
   * without a key.
   */
  readonly issuePortalToken: (
    actor: Actor | undefined,
    engagementId: string,
    token: string,
    at: number,
    messages?: ReadonlyArray<NewMessage>
  ) => Effect.Effect<void, EngagementNotFound | Unavailable>
}
