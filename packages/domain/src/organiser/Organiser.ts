/**
 * The organiser use cases (CONTRACT §12) after authentication, the request shape and the `admin` limit:
 * ids in the path (404) → body (422) → conflicts (409). Every call is scoped by the actor's organisation.
 */
import { Context, type Effect, type Option } from "effect"
import type { Unavailable } from "../shared/errors.js"
import type { ValidationFailed } from "../rules/errors.js"
import type { Body } from "./organiserInput.js"
import type { ArtistNotFound, EngagementNotFound, EventNotFound, EventSectionNotFound, InUse, TimeSlotNotFound, Unauthenticated } from "./OrganiserErrors.js"
import type {
  Actor,
  AdminArtist,
  AdminEngagement,
  AdminEvent,
  ArtistDetail,
  EngagementDetail,
  AdminEventSection,
  AdminTimeSlot,
  AuditEntry,
  CreatedKey,
  Organisation,
  Page,
  PageRequest,
  SectionKey,
  SlotKey
} from "./OrganiserModel.js"

type E<A, X = never> = Effect.Effect<A, X | Unavailable>

export class Organiser extends Context.Service<Organiser, {
  /**
   * The actor of a bearer token: any token of 32–512 characters of `[\x21-\x7E]` is looked up; a
   * missing, malformed, unknown or revoked key is Unauthenticated. Records the use at most once a minute.
   */
  readonly authenticate: (token: string) => E<Actor, Unauthenticated>
  readonly organisation: (actor: Actor) => E<Option.Option<Organisation>>

  readonly listEvents: (actor: Actor, page: PageRequest<CreatedKey>) => E<Page<AdminEvent>>
  readonly getEvent: (actor: Actor, id: string) => E<AdminEvent, EventNotFound>
  readonly createEvent: (actor: Actor, body: Body) => E<AdminEvent, ValidationFailed>
  readonly updateEvent: (actor: Actor, id: string, body: Body) => E<AdminEvent, EventNotFound | ValidationFailed>
  readonly deleteEvent: (actor: Actor, id: string) => E<void, EventNotFound | InUse>

  readonly listTimeSlots: (actor: Actor, eventId: string, page: PageRequest<SlotKey>) => E<Page<AdminTimeSlot>, EventNotFound>
  readonly createTimeSlot: (actor: Actor, eventId: string, body: Body) => E<AdminTimeSlot, EventNotFound | ValidationFailed>
  readonly updateTimeSlot: (actor: Actor, id: string, body: Body) => E<AdminTimeSlot, TimeSlotNotFound | ValidationFailed>
  readonly deleteTimeSlot: (actor: Actor, id: string) => E<void, TimeSlotNotFound | InUse>

  readonly listEventSections: (
    actor: Actor,
    eventId: string,
    page: PageRequest<SectionKey>
  ) => E<Page<AdminEventSection>, EventNotFound>
  readonly createEventSection: (
    actor: Actor,
    eventId: string,
    body: Body
  ) => E<AdminEventSection, EventNotFound | ValidationFailed>
  readonly updateEventSection: (
    actor: Actor,
    id: string,
    body: Body
  ) => E<AdminEventSection, EventSectionNotFound | ValidationFailed>
  readonly deleteEventSection: (actor: Actor, id: string) => E<void, EventSectionNotFound>

  readonly auditLog: (actor: Actor, page: PageRequest<CreatedKey>) => E<Page<AuditEntry>>

  readonly listArtists: (actor: Actor, page: PageRequest<CreatedKey>) => E<Page<AdminArtist>>
  readonly getArtist: (actor: Actor, id: string) => E<ArtistDetail, ArtistNotFound>
  readonly createArtist: (actor: Actor, body: Body) => E<AdminArtist, ValidationFailed>
  /** Soft delete: the artist's portals answer 410 from then on. */
  readonly deleteArtist: (actor: Actor, id: string) => E<void, ArtistNotFound>

  readonly listEngagements: (actor: Actor, page: PageRequest<CreatedKey>) => E<Page<AdminEngagement>>
  /** 422 `in` on `event_id` / `master_artist_id` for an unknown, foreign or (artist) soft-deleted one. */
  readonly createEngagement: (actor: Actor, body: Body) => E<AdminEngagement, ValidationFailed>
  readonly getEngagement: (actor: Actor, id: string) => E<EngagementDetail, EngagementNotFound>
  /**
   * A new portal link: `token` (32 random bytes from the caller: the domain has no randomness) becomes
   * the engagement's portal token; the old one stops working. The one path of the HTTP route and the
   * CLI's `portal-link` (actor undefined: unscoped).
   */
  readonly issuePortalLink: (actor: Actor | undefined, engagementId: string, token: string) => E<void, EngagementNotFound>
}>()("@forms/domain/Organiser") {}
