/**
 * OrganiserCatalog in memory: events, time slots, event sections and the audit log, each write one synchronous
 * step with its audit entry. A slot's holders are counted where the public-form ports keep places (`holders`).
 */
import { Effect, Option } from "effect"
import type { AdminEvent, AdminTimeSlot, SectionKey, SlotKey } from "../../../organiser/catalog/CatalogModel.js"
import {
  EventNotFound,
  EventSectionNotFound,
  InUse,
  ReferenceInvalid,
  SlotTimesInvalid,
  TimeSlotNotFound
} from "../../../organiser/catalog/errors.js"
import { OrganiserCatalog } from "../../../organiser/catalog/OrganiserCatalog.js"
import { compareStrings } from "../../../shared/compareStrings.js"
import { effectiveTimeZone, type SlotClock, slotInstants } from "../../../shifts/slotInstants.js"
import type { CreatedKey } from "../../../shared/paging.js"
import { newestFirst, paged } from "../../paging.js"
import { type AuditAppend, type OrganiserState, own } from "../OrganiserState.js"

const bySlot = (a: SlotKey, b: SlotKey) =>
  compareStrings(a.date, b.date) || compareStrings(a.start_time, b.start_time) || compareStrings(a.name, b.name) ||
  compareStrings(a.id, b.id)
const bySection = (a: SectionKey, b: SectionKey) =>
  a.position - b.position || compareStrings(a.name, b.name) || compareStrings(a.id, b.id)

/** Where the in-memory organiser reads and changes the places of its slots (nothing when no store keeps places). */
export interface SlotPlacesAccess {
  /** Confirmed places on the slot. */
  readonly holders: (slotId: string) => number
  /** Waiting places on the slot. */
  readonly waitlisted: (slotId: string) => number
  /** Promotes waiting places of the slot at `at` (CONTRACT §22), recording `place.promoted` for each. */
  readonly promote: (slot: { readonly id: string; readonly capacity: number | null; readonly starts_at: number }, at: number) => void
}

export const noSlotPlaces: SlotPlacesAccess = { holders: () => 0, waitlisted: () => 0, promote: () => {} }

export const inMemoryOrganiserCatalog = (
  state: OrganiserState,
  audit: AuditAppend,
  newId: () => string,
  places: SlotPlacesAccess = noSlotPlaces
): typeof OrganiserCatalog.Service => {
  const holders = places.holders
  /** The zone of an event's slots: its own, its parent's, else UTC (CONTRACT §22). */
  const zoneOf = (event: Pick<AdminEvent, "timezone" | "parent_event_id">): string =>
    effectiveTimeZone(event.timezone, event.parent_event_id === null ? null : state.events.get(event.parent_event_id)?.row.timezone)
  const view = (event: AdminEvent): AdminEvent => ({ ...event, effective_timezone: zoneOf(event) })
  const ownEvent = (org: string, id: string) => {
    const event = own(state.events, org, id)
    return event === undefined ? undefined : view(event)
  }
  const eventZone = (eventId: string) => {
    const event = state.events.get(eventId)?.row
    return event === undefined ? "UTC" : zoneOf(event)
  }
  const withName = (slot: Omit<AdminTimeSlot, "event_name" | "holders" | "starts_at" | "ends_at" | "waitlisted">): AdminTimeSlot => ({
    ...slot,
    ...(slotInstants(slot, eventZone(slot.event_id)) ?? { starts_at: 0, ends_at: 0 }),
    holders: holders(slot.id),
    waitlisted: places.waitlisted(slot.id),
    event_name: state.events.get(slot.event_id)?.row.name ?? ""
  })
  /** Whether every slot of the events would still end after it starts in `zone`. */
  const slotsFitZone = (eventIds: ReadonlyArray<string>, zone: (eventId: string) => string) =>
    [...state.slots.values()].every((s) => !eventIds.includes(s.row.event_id) || slotInstants(s.row, zone(s.row.event_id)) !== undefined)
  const fits = (slot: SlotClock, eventId: string) => slotInstants(slot, eventZone(eventId)) !== undefined
  const validParent = (org: string, parentId: string | null | undefined, self?: string): boolean => {
    if (parentId === null || parentId === undefined) return true
    const parent = ownEvent(org, parentId)
    return parent !== undefined && parent.parent_event_id === null && parentId !== self
  }
  const hasChildren = (id: string) => [...state.events.values()].some((e) => e.row.parent_event_id === id)

  return OrganiserCatalog.of({
    listEvents: (org, page) =>
      Effect.sync(() => paged([...state.events.values()].filter((e) => e.organisation_id === org).map((e) => view(e.row)), (e) => e, newestFirst, page)),
    findEvent: (org, id) => Effect.sync(() => Option.fromUndefinedOr(ownEvent(org, id))),
    createEvent: (actor, input, at) =>
      Effect.suspend(() => {
        if (!validParent(actor.organisation_id, input.parent_event_id)) return Effect.fail(new ReferenceInvalid({ field: "parent_event_id" }))
        const event: AdminEvent = {
          id: newId(),
          name: input.name,
          parent_event_id: input.parent_event_id,
          timezone: input.timezone ?? null,
          effective_timezone: "UTC",
          created_at: at
        }
        state.events.set(event.id, { organisation_id: actor.organisation_id, row: event })
        audit(actor, at, { action: "event.created", resource_type: "event", resource_id: event.id })
        return Effect.succeed(view(event))
      }),
    updateEvent: (actor, id, patch, at) =>
      Effect.suspend((): Effect.Effect<AdminEvent, EventNotFound | ReferenceInvalid | SlotTimesInvalid> => {
        const stored = state.events.get(id)
        if (stored === undefined || stored.organisation_id !== actor.organisation_id) return Effect.fail(new EventNotFound())
        if (patch.parent_event_id !== undefined && patch.parent_event_id !== null &&
          (!validParent(actor.organisation_id, patch.parent_event_id, id) || hasChildren(id))) {
          return Effect.fail(new ReferenceInvalid({ field: "parent_event_id" }))
        }
        const next = { ...stored.row, ...patch }
        // The event's slots and those of its children without a zone of their own move with it (CONTRACT §22).
        const children = [...state.events.values()].filter((e) => e.row.parent_event_id === id && e.row.timezone === null)
        const zone = (eventId: string) => (eventId === id ? zoneOf(next) : effectiveTimeZone(null, next.timezone))
        if (!slotsFitZone([id, ...children.map((c) => c.row.id)], zone)) {
          return Effect.fail(new SlotTimesInvalid({ field: patch.timezone !== undefined ? "timezone" : "parent_event_id" }))
        }
        stored.row = next
        audit(actor, at, { action: "event.updated", resource_type: "event", resource_id: id })
        return Effect.succeed(view(stored.row))
      }),
    deleteEvent: (actor, id, at) =>
      Effect.suspend((): Effect.Effect<void, EventNotFound | InUse> => {
        if (ownEvent(actor.organisation_id, id) === undefined) return Effect.fail(new EventNotFound())
        const used = hasChildren(id) ||
          [...state.slots.values(), ...state.sections.values(), ...state.engagements.values()].some((s) => s.row.event_id === id)
        if (used) return Effect.fail(new InUse())
        state.events.delete(id)
        audit(actor, at, { action: "event.deleted", resource_type: "event", resource_id: id })
        return Effect.void
      }),

    listTimeSlots: (org, eventId, page) =>
      Effect.suspend(() => {
        if (ownEvent(org, eventId) === undefined) return Effect.fail(new EventNotFound())
        const rows = [...state.slots.values()].filter((s) => s.row.event_id === eventId).map((s) => withName(s.row))
        return Effect.succeed(paged(rows, (s): SlotKey => s, bySlot, page))
      }),
    findTimeSlot: (org, id) => Effect.sync(() => Option.map(Option.fromUndefinedOr(own(state.slots, org, id)), withName)),
    createTimeSlot: (actor, eventId, input, at) =>
      Effect.suspend((): Effect.Effect<AdminTimeSlot, EventNotFound | SlotTimesInvalid> => {
        if (ownEvent(actor.organisation_id, eventId) === undefined) return Effect.fail(new EventNotFound())
        if (!fits(input, eventId)) return Effect.fail(new SlotTimesInvalid({ field: "end_time" }))
        const slot = {
          id: newId(),
          event_id: eventId,
          ...input,
          signup_opens_at: input.signup_opens_at ?? null,
          signup_closes_at: input.signup_closes_at ?? null,
          waitlist: input.waitlist ?? false
        }
        state.slots.set(slot.id, { organisation_id: actor.organisation_id, row: slot })
        audit(actor, at, { action: "time_slot.created", resource_type: "time_slot", resource_id: slot.id })
        return Effect.succeed(withName(slot))
      }),
    updateTimeSlot: (actor, id, patch, at) =>
      Effect.suspend((): Effect.Effect<AdminTimeSlot, TimeSlotNotFound | SlotTimesInvalid> => {
        const stored = state.slots.get(id)
        if (stored === undefined || stored.organisation_id !== actor.organisation_id) return Effect.fail(new TimeSlotNotFound())
        const next = { ...stored.row, ...patch }
        if (!fits(next, next.event_id)) return Effect.fail(new SlotTimesInvalid({ field: "end_time" }))
        stored.row = next
        const updated = withName(stored.row)
        places.promote(updated, at)
        audit(actor, at, { action: "time_slot.updated", resource_type: "time_slot", resource_id: id })
        return Effect.succeed(withName(stored.row))
      }),
    deleteTimeSlot: (actor, id, at) =>
      Effect.suspend((): Effect.Effect<void, TimeSlotNotFound | InUse> => {
        if (own(state.slots, actor.organisation_id, id) === undefined) return Effect.fail(new TimeSlotNotFound())
        // A place held by a submitted submission refers to the slot (CONTRACT §15), as the SQL foreign key does.
        if (holders(id) > 0) return Effect.fail(new InUse())
        state.slots.delete(id)
        audit(actor, at, { action: "time_slot.deleted", resource_type: "time_slot", resource_id: id })
        return Effect.void
      }),

    listEventSections: (org, eventId, page) =>
      Effect.suspend(() => {
        if (ownEvent(org, eventId) === undefined) return Effect.fail(new EventNotFound())
        const rows = [...state.sections.values()].filter((s) => s.row.event_id === eventId).map((s) => s.row)
        return Effect.succeed(paged(rows, (s): SectionKey => s, bySection, page))
      }),
    findEventSection: (org, id) => Effect.sync(() => Option.fromUndefinedOr(own(state.sections, org, id))),
    createEventSection: (actor, eventId, input, at) =>
      Effect.suspend(() => {
        if (ownEvent(actor.organisation_id, eventId) === undefined) return Effect.fail(new EventNotFound())
        const section = { id: newId(), event_id: eventId, ...input }
        state.sections.set(section.id, { organisation_id: actor.organisation_id, row: section })
        audit(actor, at, { action: "event_section.created", resource_type: "event_section", resource_id: section.id })
        return Effect.succeed(section)
      }),
    updateEventSection: (actor, id, patch, at) =>
      Effect.suspend(() => {
        const stored = state.sections.get(id)
        if (stored === undefined || stored.organisation_id !== actor.organisation_id) return Effect.fail(new EventSectionNotFound())
        stored.row = { ...stored.row, ...patch }
        audit(actor, at, { action: "event_section.updated", resource_type: "event_section", resource_id: id })
        return Effect.succeed(stored.row)
      }),
    deleteEventSection: (actor, id, at) =>
      Effect.suspend(() => {
        if (own(state.sections, actor.organisation_id, id) === undefined) return Effect.fail(new EventSectionNotFound())
        state.sections.delete(id)
        audit(actor, at, { action: "event_section.deleted", resource_type: "event_section", resource_id: id })
        return Effect.void
      }),

    listAudit: (org, page) =>
      Effect.sync(() => paged(state.audit.filter((a) => a.organisation_id === org).map((a) => a.row), (a): CreatedKey => ({ created_at: a.at, id: a.id }), newestFirst, page))
  })
}
