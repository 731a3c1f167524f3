/**
 * The catalog's use cases of the `Organiser` service (CONTRACT §12): authentication, the organisation, events,
 * time slots, event sections and the audit log, over the OrganiserAccess and OrganiserCatalog ports.
 */
import { Clock, Effect, Option } from "effect"
import { type Body, checked } from "../../rules/bodyChecks.js"
import { ValidationFailed } from "../../rules/errors.js"
import type { Actor } from "../../shared/Actor.js"
import type { Unavailable } from "../../shared/errors.js"
import type { CreatedKey, Page, PageRequest } from "../../shared/paging.js"
import { eventInput, eventPatch, sectionInput, sectionPatch, slotInput, slotPatch, waitlistProblem } from "./catalogInput.js"
import type {
  AdminEvent,
  AdminEventSection,
  AdminTimeSlot,
  AuditEntry,
  Organisation,
  SectionKey,
  SlotKey
} from "./CatalogModel.js"
import { EventNotFound, EventSectionNotFound, type InUse, TimeSlotNotFound, Unauthenticated } from "./errors.js"
import type { OrganiserAccess } from "./OrganiserAccess.js"
import type { OrganiserCatalog } from "./OrganiserCatalog.js"
import { referenceProblem, slotTimesProblem } from "./references.js"

type E<A, X = never> = Effect.Effect<A, X | Unavailable>

/** In the contract's order: ids in the path (404) → body (422) → conflicts (409); scoped by the actor's organisation. */
export interface CatalogUseCases {
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
}

/** A bearer token worth a lookup (CONTRACT §12). */
export const isBearerToken = (token: string): boolean => /^[\x21-\x7E]{32,512}$/.test(token)

/** `last_used_at` is written at most once per key per this many ms, not on every request. */
export const touchIntervalMs = 60_000

export const makeCatalogUseCases = (
  access: typeof OrganiserAccess.Service,
  catalog: typeof OrganiserCatalog.Service
): CatalogUseCases => {
  const getEvent = Effect.fn("Organiser.getEvent")(function*(actor: Actor, id: string) {
    return yield* catalog.findEvent(actor.organisation_id, id).pipe(Effect.flatMap(Effect.fromOption(() => new EventNotFound())))
  })

  return {
    authenticate: Effect.fn("Organiser.authenticate")(function*(token: string) {
      if (!isBearerToken(token)) return yield* new Unauthenticated()
      const found = yield* access.findApiKey(token)
      if (Option.isNone(found) || found.value.revoked_at !== null) return yield* new Unauthenticated()
      const key = found.value
      const now = yield* Clock.currentTimeMillis
      if (key.last_used_at === null || now - key.last_used_at >= touchIntervalMs) yield* access.touchApiKey(key.id, now)
      return { organisation_id: key.organisation_id, api_key_id: key.id }
    }),
    organisation: Effect.fn("Organiser.organisation")(function*(actor: Actor) {
      return yield* access.findOrganisation(actor.organisation_id)
    }),

    listEvents: Effect.fn("Organiser.listEvents")(function*(actor: Actor, page: PageRequest<CreatedKey>) {
      return yield* catalog.listEvents(actor.organisation_id, page)
    }),
    getEvent,
    createEvent: Effect.fn("Organiser.createEvent")(function*(actor: Actor, body: Body) {
      const input = yield* checked(eventInput(body))
      return yield* catalog.createEvent(actor, input, yield* Clock.currentTimeMillis).pipe(
        Effect.catchTag("ReferenceInvalid", (e) => Effect.fail(referenceProblem(e)))
      )
    }),
    updateEvent: Effect.fn("Organiser.updateEvent")(function*(actor: Actor, id: string, body: Body) {
      yield* getEvent(actor, id)
      const patch = yield* checked(eventPatch(body))
      return yield* catalog.updateEvent(actor, id, patch, yield* Clock.currentTimeMillis).pipe(
        Effect.catchTag("ReferenceInvalid", (e) => Effect.fail(referenceProblem(e))),
        Effect.catchTag("SlotTimesInvalid", (e) => Effect.fail(slotTimesProblem(e)))
      )
    }),
    deleteEvent: Effect.fn("Organiser.deleteEvent")(function*(actor: Actor, id: string) {
      return yield* catalog.deleteEvent(actor, id, yield* Clock.currentTimeMillis)
    }),

    listTimeSlots: Effect.fn("Organiser.listTimeSlots")(function*(actor: Actor, eventId: string, page: PageRequest<SlotKey>) {
      return yield* catalog.listTimeSlots(actor.organisation_id, eventId, page)
    }),
    createTimeSlot: Effect.fn("Organiser.createTimeSlot")(function*(actor: Actor, eventId: string, body: Body) {
      yield* getEvent(actor, eventId)
      const input = yield* checked(slotInput(body))
      const waitlistFields = waitlistProblem(input)
      if (waitlistFields !== undefined) return yield* new ValidationFailed({ fields: waitlistFields })
      return yield* catalog.createTimeSlot(actor, eventId, input, yield* Clock.currentTimeMillis).pipe(
        Effect.catchTag("SlotTimesInvalid", (e) => Effect.fail(slotTimesProblem(e)))
      )
    }),
    updateTimeSlot: Effect.fn("Organiser.updateTimeSlot")(function*(actor: Actor, id: string, body: Body) {
      const found = yield* catalog.findTimeSlot(actor.organisation_id, id).pipe(
        Effect.flatMap(Effect.fromOption(() => new TimeSlotNotFound()))
      )
      const patch = yield* checked(slotPatch(body))
      // Checked on the slot as it would be; the store keeps the two members consistent too (a check constraint).
      const waitlistFields = waitlistProblem({ ...found, ...patch })
      if (waitlistFields !== undefined) return yield* new ValidationFailed({ fields: waitlistFields })
      return yield* catalog.updateTimeSlot(actor, id, patch, yield* Clock.currentTimeMillis).pipe(
        Effect.catchTag("SlotTimesInvalid", (e) => Effect.fail(slotTimesProblem(e)))
      )
    }),
    deleteTimeSlot: Effect.fn("Organiser.deleteTimeSlot")(function*(actor: Actor, id: string) {
      return yield* catalog.deleteTimeSlot(actor, id, yield* Clock.currentTimeMillis)
    }),

    listEventSections: Effect.fn("Organiser.listEventSections")(function*(actor: Actor, eventId: string, page: PageRequest<SectionKey>) {
      return yield* catalog.listEventSections(actor.organisation_id, eventId, page)
    }),
    createEventSection: Effect.fn("Organiser.createEventSection")(function*(actor: Actor, eventId: string, body: Body) {
      yield* getEvent(actor, eventId)
      const input = yield* checked(sectionInput(body))
      return yield* catalog.createEventSection(actor, eventId, input, yield* Clock.currentTimeMillis)
    }),
    updateEventSection: Effect.fn("Organiser.updateEventSection")(function*(actor: Actor, id: string, body: Body) {
      yield* catalog.findEventSection(actor.organisation_id, id).pipe(
        Effect.flatMap(Effect.fromOption(() => new EventSectionNotFound()))
      )
      const patch = yield* checked(sectionPatch(body))
      return yield* catalog.updateEventSection(actor, id, patch, yield* Clock.currentTimeMillis)
    }),
    deleteEventSection: Effect.fn("Organiser.deleteEventSection")(function*(actor: Actor, id: string) {
      return yield* catalog.deleteEventSection(actor, id, yield* Clock.currentTimeMillis)
    }),

    auditLog: Effect.fn("Organiser.auditLog")(function*(actor: Actor, page: PageRequest<CreatedKey>) {
      return yield* catalog.listAudit(actor.organisation_id, page)
    })
  }
}
