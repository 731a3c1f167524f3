/**
 * Port: an organisation's events, time slots and event sections, and its audit log. Every method is
 * scoped by organisation (a row of another organisation is an unknown one), and every write is one
 * atomic step that also appends its audit entry (ids only).
 */
import { Context, type Effect, type Option } from "effect"
import type { Actor } from "../../shared/Actor.js"
import type { Unavailable } from "../../shared/errors.js"
import type { CreatedKey, Page, PageRequest } from "../../shared/paging.js"
import type {
  AdminEvent,
  AdminEventSection,
  AdminTimeSlot,
  AuditEntry,
  EventInput,
  EventPatch,
  SectionInput,
  SectionKey,
  SectionPatch,
  SlotInput,
  SlotKey,
  SlotPatch
} from "./CatalogModel.js"
import type { EventNotFound, EventSectionNotFound, InUse, ReferenceInvalid, SlotTimesInvalid, TimeSlotNotFound } from "./errors.js"

/** The time of a write (epoch ms, from Effect's Clock): `created_at` of new rows and the audit entry's `at`. */
export type WriteTime = number

type E<A, X = never> = Effect.Effect<A, X | Unavailable>

export class OrganiserCatalog extends Context.Service<OrganiserCatalog, {
  /** Newest first (`created_at`, then `id`, both descending). */
  readonly listEvents: (organisationId: string, page: PageRequest<CreatedKey>) => E<Page<AdminEvent>>
  readonly findEvent: (organisationId: string, id: string) => E<Option.Option<AdminEvent>>
  /**
   * ReferenceInvalid("parent_event_id") when the parent is not a top-level event of the organisation.
   */
  readonly createEvent: (actor: Actor, input: EventInput, at: WriteTime) => E<AdminEvent, ReferenceInvalid>
  /**
   * ReferenceInvalid("parent_event_id") when the new parent is not a top-level event of the
   * organisation, is the event itself, or the event has children (one level only). When the zone of the
   * event's slots (or of its children's) changes, their instants are recomputed in the same step;
   * SlotTimesInvalid("timezone" or "parent_event_id") when one would then not end after it starts.
   */
  readonly updateEvent: (
    actor: Actor,
    id: string,
    patch: EventPatch,
    at: WriteTime
  ) => E<AdminEvent, EventNotFound | ReferenceInvalid | SlotTimesInvalid>
  /** InUse while child events, forms, slots, sections, engagements or submissions refer to it. */
  readonly deleteEvent: (actor: Actor, id: string, at: WriteTime) => E<void, EventNotFound | InUse>

  /** The event's slots by date, start_time, name, id (code-unit order). */
  readonly listTimeSlots: (
    organisationId: string,
    eventId: string,
    page: PageRequest<SlotKey>
  ) => E<Page<AdminTimeSlot>, EventNotFound>
  readonly findTimeSlot: (organisationId: string, id: string) => E<Option.Option<AdminTimeSlot>>
  /**
   * The slot's instants are computed in its event's zone in the same step (shifts/slotInstants.ts);
   * SlotTimesInvalid("end_time") when its end would not be after its start. An update promotes waiting places in
   * the same step when it made room (a capacity raised, CONTRACT §22), recording `place.promoted` for each.
   */
  readonly createTimeSlot: (
    actor: Actor,
    eventId: string,
    input: SlotInput,
    at: WriteTime
  ) => E<AdminTimeSlot, EventNotFound | SlotTimesInvalid>
  readonly updateTimeSlot: (
    actor: Actor,
    id: string,
    patch: SlotPatch,
    at: WriteTime
  ) => E<AdminTimeSlot, TimeSlotNotFound | SlotTimesInvalid>
  readonly deleteTimeSlot: (actor: Actor, id: string, at: WriteTime) => E<void, TimeSlotNotFound | InUse>

  /** The event's sections by position, name, id. */
  readonly listEventSections: (
    organisationId: string,
    eventId: string,
    page: PageRequest<SectionKey>
  ) => E<Page<AdminEventSection>, EventNotFound>
  readonly findEventSection: (organisationId: string, id: string) => E<Option.Option<AdminEventSection>>
  readonly createEventSection: (
    actor: Actor,
    eventId: string,
    input: SectionInput,
    at: WriteTime
  ) => E<AdminEventSection, EventNotFound>
  readonly updateEventSection: (
    actor: Actor,
    id: string,
    patch: SectionPatch,
    at: WriteTime
  ) => E<AdminEventSection, EventSectionNotFound>
  readonly deleteEventSection: (actor: Actor, id: string, at: WriteTime) => E<void, EventSectionNotFound>

  /** Newest first (`at`, then `id`). */
  readonly listAudit: (organisationId: string, page: PageRequest<CreatedKey>) => E<Page<AuditEntry>>
}>()("@forms/domain/OrganiserCatalog") {}
