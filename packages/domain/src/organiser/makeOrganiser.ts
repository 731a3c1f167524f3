/** The organiser use cases over the OrganiserAccess and OrganiserCatalog ports. */
import { Clock, Effect, Layer, Option, Result } from "effect"
import { ValidationFailed } from "../rules/errors.js"
import { OrganiserAccess } from "../ports/OrganiserAccess.js"
import { OrganiserArtists } from "../ports/OrganiserArtists.js"
import { OrganiserCatalog } from "../ports/OrganiserCatalog.js"
import type { FieldErrors } from "../rules/FieldErrors.js"
import { Organiser } from "./Organiser.js"
import { ArtistNotFound, EngagementNotFound, EventNotFound, EventSectionNotFound, type ReferenceInvalid, TimeSlotNotFound, Unauthenticated } from "./OrganiserErrors.js"
import {
  artistInput,
  type Body,
  engagementInput,
  eventInput,
  eventPatch,
  sectionInput,
  sectionPatch,
  slotInput,
  slotPatch
} from "./organiserInput.js"
import type { Actor } from "./OrganiserModel.js"

/** A bearer token worth a lookup (CONTRACT §12). */
export const isBearerToken = (token: string): boolean => /^[\x21-\x7E]{32,512}$/.test(token)

/** `last_used_at` is written at most once per key per this many ms, not on every request. */
export const touchIntervalMs = 60_000

const invalidBody = (fields: FieldErrors) => new ValidationFailed({ fields })

const checked = <A>(result: Result.Result<A, FieldErrors>) =>
  Result.isSuccess(result) ? Effect.succeed(result.success) : Effect.fail(invalidBody(result.failure))

const inReference = { rule: "in", message: "This member names nothing it may refer to." } as const
const unknownReference = (error: ReferenceInvalid) => invalidBody({ [error.field]: [inReference] })

export const makeOrganiser = Effect.gen(function*() {
  const access = yield* OrganiserAccess
  const catalog = yield* OrganiserCatalog
  const artists = yield* OrganiserArtists

  const requireEvent = (actor: Actor, id: string) =>
    catalog.findEvent(actor.organisation_id, id).pipe(
      Effect.flatMap(Option.match({ onNone: () => Effect.fail(new EventNotFound()), onSome: Effect.succeed }))
    )

  return Organiser.of({
    authenticate: Effect.fn("Organiser.authenticate")(function*(token: string) {
      if (!isBearerToken(token)) return yield* new Unauthenticated()
      const found = yield* access.findApiKey(token)
      if (Option.isNone(found) || found.value.revoked_at !== null) return yield* new Unauthenticated()
      const key = found.value
      const now = yield* Clock.currentTimeMillis
      if (key.last_used_at === null || now - key.last_used_at >= touchIntervalMs) yield* access.touchApiKey(key.id, now)
      return { organisation_id: key.organisation_id, api_key_id: key.id }
    }),

    organisation: (actor) => access.findOrganisation(actor.organisation_id),

    listEvents: (actor, page) => catalog.listEvents(actor.organisation_id, page),
    getEvent: requireEvent,
    createEvent: Effect.fn("Organiser.createEvent")(function*(actor: Actor, body: Body) {
      const input = yield* checked(eventInput(body))
      return yield* catalog.createEvent(actor, input, yield* Clock.currentTimeMillis).pipe(
        Effect.catchTag("ReferenceInvalid", (e) => Effect.fail(unknownReference(e)))
      )
    }),
    updateEvent: Effect.fn("Organiser.updateEvent")(function*(actor: Actor, id: string, body: Body) {
      yield* requireEvent(actor, id)
      const patch = yield* checked(eventPatch(body))
      return yield* catalog.updateEvent(actor, id, patch, yield* Clock.currentTimeMillis).pipe(
        Effect.catchTag("ReferenceInvalid", (e) => Effect.fail(unknownReference(e)))
      )
    }),
    deleteEvent: Effect.fn("Organiser.deleteEvent")(function*(actor: Actor, id: string) {
      return yield* catalog.deleteEvent(actor, id, yield* Clock.currentTimeMillis)
    }),

    listTimeSlots: (actor, eventId, page) => catalog.listTimeSlots(actor.organisation_id, eventId, page),
    createTimeSlot: Effect.fn("Organiser.createTimeSlot")(function*(actor: Actor, eventId: string, body: Body) {
      yield* requireEvent(actor, eventId)
      const input = yield* checked(slotInput(body))
      return yield* catalog.createTimeSlot(actor, eventId, input, yield* Clock.currentTimeMillis)
    }),
    updateTimeSlot: Effect.fn("Organiser.updateTimeSlot")(function*(actor: Actor, id: string, body: Body) {
      const found = yield* catalog.findTimeSlot(actor.organisation_id, id)
      if (Option.isNone(found)) return yield* new TimeSlotNotFound()
      const patch = yield* checked(slotPatch(body))
      return yield* catalog.updateTimeSlot(actor, id, patch, yield* Clock.currentTimeMillis)
    }),
    deleteTimeSlot: Effect.fn("Organiser.deleteTimeSlot")(function*(actor: Actor, id: string) {
      return yield* catalog.deleteTimeSlot(actor, id, yield* Clock.currentTimeMillis)
    }),

    listEventSections: (actor, eventId, page) => catalog.listEventSections(actor.organisation_id, eventId, page),
    createEventSection: Effect.fn("Organiser.createEventSection")(function*(actor: Actor, eventId: string, body: Body) {
      yield* requireEvent(actor, eventId)
      const input = yield* checked(sectionInput(body))
      return yield* catalog.createEventSection(actor, eventId, input, yield* Clock.currentTimeMillis)
    }),
    updateEventSection: Effect.fn("Organiser.updateEventSection")(function*(actor: Actor, id: string, body: Body) {
      const found = yield* catalog.findEventSection(actor.organisation_id, id)
      if (Option.isNone(found)) return yield* new EventSectionNotFound()
      const patch = yield* checked(sectionPatch(body))
      return yield* catalog.updateEventSection(actor, id, patch, yield* Clock.currentTimeMillis)
    }),
    deleteEventSection: Effect.fn("Organiser.deleteEventSection")(function*(actor: Actor, id: string) {
      return yield* catalog.deleteEventSection(actor, id, yield* Clock.currentTimeMillis)
    }),

    auditLog: (actor, page) => catalog.listAudit(actor.organisation_id, page),

    listArtists: (actor, page) => artists.listArtists(actor.organisation_id, page),
    getArtist: (actor, id) =>
      artists.findArtist(actor.organisation_id, id).pipe(
        Effect.flatMap(Option.match({ onNone: () => Effect.fail(new ArtistNotFound()), onSome: Effect.succeed }))
      ),
    createArtist: Effect.fn("Organiser.createArtist")(function*(actor: Actor, body: Body) {
      const input = yield* checked(artistInput(body))
      return yield* artists.createArtist(actor, input.name, yield* Clock.currentTimeMillis)
    }),
    deleteArtist: Effect.fn("Organiser.deleteArtist")(function*(actor: Actor, id: string) {
      return yield* artists.deleteArtist(actor, id, yield* Clock.currentTimeMillis)
    }),

    listEngagements: (actor, page) => artists.listEngagements(actor.organisation_id, page),
    createEngagement: Effect.fn("Organiser.createEngagement")(function*(actor: Actor, body: Body) {
      const input = yield* checked(engagementInput(body))
      // Both references at once (every problem in one answer); the port checks them again under lock.
      const event = yield* catalog.findEvent(actor.organisation_id, input.event_id)
      const artist = yield* artists.findArtist(actor.organisation_id, input.master_artist_id)
      const bad: Record<string, ReadonlyArray<{ rule: "in"; message: string }>> = {}
      if (Option.isNone(event)) bad["event_id"] = [inReference]
      if (Option.isNone(artist) || artist.value.deleted_at !== null) bad["master_artist_id"] = [inReference]
      if (Object.keys(bad).length > 0) return yield* invalidBody(bad)
      return yield* artists.createEngagement(actor, input, yield* Clock.currentTimeMillis).pipe(
        Effect.catchTag("ReferenceInvalid", (e) => Effect.fail(unknownReference(e)))
      )
    }),
    getEngagement: (actor, id) =>
      artists.findEngagement(actor.organisation_id, id).pipe(
        Effect.flatMap(Option.match({ onNone: () => Effect.fail(new EngagementNotFound()), onSome: Effect.succeed }))
      ),
    issuePortalLink: Effect.fn("Organiser.issuePortalLink")(function*(actor: Actor | undefined, engagementId: string, token: string) {
      return yield* artists.issuePortalToken(actor, engagementId, token, yield* Clock.currentTimeMillis)
    })
  })
})

/** The organiser use cases; needs OrganiserAccess, OrganiserCatalog and OrganiserArtists. */
const organiserLayer = Layer.effect(Organiser, makeOrganiser)

/** The layer of `OrganiserLive`: `OrganiserLive.layer`. */
export const OrganiserLive = { layer: organiserLayer } as const
