/** OrganiserAccess and OrganiserCatalog in memory: each write is one synchronous step (atomic in one process). */
import { Effect, Layer, Option } from "effect"
import type { AdminArtist, ArtistDetail } from "../../organiser/artists/ArtistModel.js"
import type { AdminEngagement } from "../../organiser/engagements/EngagementModel.js"
import type { Actor } from "../../shared/Actor.js"
import type { AdminEvent, AdminEventSection, AdminTimeSlot, ApiKeyRecord, AuditEntry, AuditRecord, Organisation, SectionKey, SlotKey } from "../../organiser/catalog/CatalogModel.js"
import type { CreatedKey, Page, PageRequest } from "../../shared/paging.js"
import { ArtistNotFound } from "../../organiser/artists/errors.js"
import { EventNotFound, EventSectionNotFound, InUse, ReferenceInvalid, TimeSlotNotFound } from "../../organiser/catalog/errors.js"
import { OrganiserAccess } from "../../organiser/catalog/OrganiserAccess.js"
import { OrganiserArtists } from "../../organiser/OrganiserArtists.js"
import { OrganiserCatalog } from "../../organiser/catalog/OrganiserCatalog.js"
import { compareStrings } from "../../shared/compareStrings.js"
import { holdersOf, type InMemoryData, InMemoryStore } from "../InMemoryStore.js"
import { inMemoryEngagements } from "./InMemoryEngagements.js"

interface Stored<A> {
  readonly organisation_id: string
  row: A
}

/** The state behind both ports (keys are kept as given: this adapter is for tests only). */
export interface OrganiserState {
  readonly organisations: Map<string, Organisation>
  readonly keys: Map<string, { key: string; record: ApiKeyRecord }>
  readonly events: Map<string, Stored<AdminEvent>>
  readonly slots: Map<string, Stored<Omit<AdminTimeSlot, "event_name" | "holders">>>
  readonly sections: Map<string, Stored<AdminEventSection>>
  readonly audit: Array<Stored<AuditEntry>>
  readonly artists: Map<string, Stored<ArtistDetail>>
  /** Engagements with their portal token as given (no drafts here: `advance` and `values` stay `{}`). */
  readonly engagements: Map<string, Stored<AdminEngagement & { portal_token: string | null }>>
}

export type AuditAppend = (actor: Actor, at: number, record: AuditRecord) => void

let counter = 0
/** A UUID-shaped id, unique in this process. */
const newId = (): string => {
  counter += 1
  return `00000000-0000-4000-8000-${counter.toString(16).padStart(12, "0")}`
}

export const byCreatedDesc = (a: CreatedKey, b: CreatedKey) => b.created_at - a.created_at || compareStrings(b.id, a.id)
const bySlot = (a: SlotKey, b: SlotKey) =>
  compareStrings(a.date, b.date) || compareStrings(a.start_time, b.start_time) || compareStrings(a.name, b.name) ||
  compareStrings(a.id, b.id)
const bySection = (a: SectionKey, b: SectionKey) =>
  a.position - b.position || compareStrings(a.name, b.name) || compareStrings(a.id, b.id)

export const paged = <A, K>(rows: ReadonlyArray<A>, keyOf: (a: A) => K, order: (a: K, b: K) => number, page: PageRequest<K>): Page<A> => {
  const after = page.after
  const sorted = [...rows].sort((a, b) => order(keyOf(a), keyOf(b)))
  const rest = after === undefined ? sorted : sorted.filter((row) => order(keyOf(row), after) > 0)
  return { items: rest.slice(0, page.limit), more: rest.length > page.limit }
}

/** A fresh organiser state; over a shared store's data, its audit log is that store's (one log for every adapter). */
export const makeOrganiserState = (shared?: InMemoryData): OrganiserState => ({
  organisations: new Map(),
  keys: new Map(),
  events: new Map(),
  slots: new Map(),
  sections: new Map(),
  audit: shared?.audit ?? [],
  artists: new Map(),
  engagements: new Map()
})

/**
 * The organiser ports over `state`; with `shared` (the data of the `InMemoryStore` the public-form ports use),
 * a slot's holders are the submitted submissions holding a place on it there, and a held slot is IN_USE.
 */
export const makeInMemoryOrganiser = (state: OrganiserState = makeOrganiserState(), shared?: InMemoryData) => {
  const audit = (actor: Actor, at: number, record: AuditRecord) =>
    state.audit.push({ organisation_id: actor.organisation_id, row: { id: newId(), at, api_key_id: actor.api_key_id, ...record } })
  const own = <A>(map: Map<string, Stored<A>>, organisationId: string, id: string): A | undefined => {
    const found = map.get(id)
    return found !== undefined && found.organisation_id === organisationId ? found.row : undefined
  }
  const ownEvent = (org: string, id: string) => own(state.events, org, id)
  // Without a shared store this state holds no submissions: no slot of it is ever held.
  const holders = (slotId: string): number => (shared === undefined ? 0 : holdersOf(shared, slotId))
  const withName = (slot: Omit<AdminTimeSlot, "event_name" | "holders">): AdminTimeSlot => ({
    ...slot,
    holders: holders(slot.id),
    event_name: state.events.get(slot.event_id)?.row.name ?? ""
  })
  const validParent = (org: string, parentId: string | null | undefined, self?: string): boolean => {
    if (parentId === null || parentId === undefined) return true
    const parent = ownEvent(org, parentId)
    return parent !== undefined && parent.parent_event_id === null && parentId !== self
  }
  const hasChildren = (id: string) => [...state.events.values()].some((e) => e.row.parent_event_id === id)

  const access = OrganiserAccess.of({
    createOrganisation: (name) =>
      Effect.sync(() => {
        const organisation = { id: newId(), name }
        state.organisations.set(organisation.id, organisation)
        return organisation
      }),
    findOrganisation: (id) => Effect.sync(() => Option.fromUndefinedOr(state.organisations.get(id))),
    createApiKey: (input) =>
      Effect.sync(() => {
        if (!state.organisations.has(input.organisation_id)) return Option.none()
        const record: ApiKeyRecord = {
          id: newId(),
          organisation_id: input.organisation_id,
          name: input.name,
          prefix: input.key.slice(0, 8),
          created_at: input.created_at,
          last_used_at: null,
          revoked_at: null
        }
        state.keys.set(record.id, { key: input.key, record })
        return Option.some(record)
      }),
    findApiKey: (key) =>
      Effect.sync(() => Option.fromUndefinedOr([...state.keys.values()].find((k) => k.key === key)?.record)),
    listApiKeys: (organisationId) =>
      Effect.sync(() =>
        [...state.keys.values()].map((k) => k.record).filter((r) => r.organisation_id === organisationId)
          .sort((a, b) => a.created_at - b.created_at || compareStrings(a.id, b.id))
      ),
    revokeApiKey: (id, at) =>
      Effect.sync(() => {
        const found = state.keys.get(id)
        if (found === undefined) return Option.none()
        found.record = { ...found.record, revoked_at: found.record.revoked_at ?? at }
        return Option.some(found.record)
      }),
    touchApiKey: (id, at) =>
      Effect.sync(() => {
        const found = state.keys.get(id)
        if (found !== undefined && (found.record.last_used_at ?? -Infinity) < at) {
          found.record = { ...found.record, last_used_at: at }
        }
      })
  })

  const catalog = OrganiserCatalog.of({
    listEvents: (org, page) =>
      Effect.sync(() => paged([...state.events.values()].filter((e) => e.organisation_id === org).map((e) => e.row), (e) => e, byCreatedDesc, page)),
    findEvent: (org, id) => Effect.sync(() => Option.fromUndefinedOr(ownEvent(org, id))),
    createEvent: (actor, input, at) =>
      Effect.suspend(() => {
        if (!validParent(actor.organisation_id, input.parent_event_id)) return Effect.fail(new ReferenceInvalid({ field: "parent_event_id" }))
        const event: AdminEvent = { id: newId(), name: input.name, parent_event_id: input.parent_event_id, created_at: at }
        state.events.set(event.id, { organisation_id: actor.organisation_id, row: event })
        audit(actor, at, { action: "event.created", resource_type: "event", resource_id: event.id })
        return Effect.succeed(event)
      }),
    updateEvent: (actor, id, patch, at) =>
      Effect.suspend((): Effect.Effect<AdminEvent, EventNotFound | ReferenceInvalid> => {
        const stored = state.events.get(id)
        if (stored === undefined || stored.organisation_id !== actor.organisation_id) return Effect.fail(new EventNotFound())
        if (patch.parent_event_id !== undefined && patch.parent_event_id !== null &&
          (!validParent(actor.organisation_id, patch.parent_event_id, id) || hasChildren(id))) {
          return Effect.fail(new ReferenceInvalid({ field: "parent_event_id" }))
        }
        stored.row = { ...stored.row, ...patch }
        audit(actor, at, { action: "event.updated", resource_type: "event", resource_id: id })
        return Effect.succeed(stored.row)
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
      Effect.suspend(() => {
        if (ownEvent(actor.organisation_id, eventId) === undefined) return Effect.fail(new EventNotFound())
        const slot = { id: newId(), event_id: eventId, ...input }
        state.slots.set(slot.id, { organisation_id: actor.organisation_id, row: slot })
        audit(actor, at, { action: "time_slot.created", resource_type: "time_slot", resource_id: slot.id })
        return Effect.succeed(withName(slot))
      }),
    updateTimeSlot: (actor, id, patch, at) =>
      Effect.suspend(() => {
        const stored = state.slots.get(id)
        if (stored === undefined || stored.organisation_id !== actor.organisation_id) return Effect.fail(new TimeSlotNotFound())
        stored.row = { ...stored.row, ...patch }
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
      Effect.sync(() => paged(state.audit.filter((a) => a.organisation_id === org).map((a) => a.row), (a): CreatedKey => ({ created_at: a.at, id: a.id }), byCreatedDesc, page))
  })
  const summary = ({ profile: _, ...artist }: ArtistDetail): AdminArtist => artist
  const artists = OrganiserArtists.of({
    listArtists: (org, page) =>
      Effect.sync(() => paged([...state.artists.values()].filter((a) => a.organisation_id === org).map((a) => summary(a.row)), (a): CreatedKey => a, byCreatedDesc, page)),
    findArtist: (org, id) => Effect.sync(() => Option.fromUndefinedOr(own(state.artists, org, id))),
    createArtist: (actor, name, at) =>
      Effect.sync(() => {
        const row: ArtistDetail = { id: newId(), name, deleted_at: null, created_at: at, profile: {} }
        state.artists.set(row.id, { organisation_id: actor.organisation_id, row })
        audit(actor, at, { action: "artist.created", resource_type: "artist", resource_id: row.id })
        return summary(row)
      }),
    deleteArtist: (actor, id, at) =>
      Effect.suspend(() => {
        const stored = state.artists.get(id)
        if (stored === undefined || stored.organisation_id !== actor.organisation_id) return Effect.fail(new ArtistNotFound())
        if (stored.row.deleted_at === null) {
          stored.row = { ...stored.row, deleted_at: at }
          audit(actor, at, { action: "artist.deleted", resource_type: "artist", resource_id: id })
        }
        return Effect.void
      })
    ,
    ...inMemoryEngagements(state, audit, newId)
  })
  return { access, catalog, artists }
}

/**
 * The organiser ports over one fresh state per build. When an `InMemoryStore` is in context (built before, e.g.
 * `Layer.provideMerge(InMemory.layer(seed))`), the audit log is the store's and slot places are read there.
 */
const inMemoryOrganiserLayer: Layer.Layer<OrganiserAccess | OrganiserCatalog | OrganiserArtists> = Layer.unwrap(
  Effect.gen(function*() {
    const shared = Option.getOrUndefined(Option.map(yield* Effect.serviceOption(InMemoryStore), (store) => store.data))
    const { access, catalog, artists } = makeInMemoryOrganiser(makeOrganiserState(shared), shared)
    return Layer.mergeAll(
      Layer.succeed(OrganiserAccess, access),
      Layer.succeed(OrganiserCatalog, catalog),
      Layer.succeed(OrganiserArtists, artists)
    )
  })
)

/** The layer of `InMemoryOrganiser`: `InMemoryOrganiser.layer`. */
export const InMemoryOrganiser = { layer: inMemoryOrganiserLayer } as const
