/**
 * Handlers of the `catalog` group: after the key (middleware), each reads its body (415, 413, 400) or its
 * query (400 INVALID_QUERY), counts the request against the `admin` limit (429), then calls only the
 * domain's `Organiser` use cases (404, 422, 409) and returns what the endpoint's schema encodes.
 */
import { Effect, Option } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { auditKeyOf, eventKeyOf, Organiser, sectionKeyOf, slotKeyOf } from "@forms/domain"
import { Api } from "../../Api.js"
import { apiError, wireErrors } from "../../http/errorTable.js"
import { createdCodec, listBody, sectionCodec, slotCodec } from "../../http/paging.js"
import { HttpConfig } from "../../HttpConfig.js"
import { bodyThenLimit, limitedActor, pageThenLimit } from "../organiserSteps.js"
import { toAdminTimeSlotWire, toAuditWire, toEventSectionWire, toEventWire, toOrganisationWire } from "./wire.js"

export const CatalogHandlers = HttpApiBuilder.group(
  Api,
  "catalog",
  Effect.fn(function*(handlers) {
    const organiser = yield* Organiser
    const { maxBodyBytes } = yield* HttpConfig

    return handlers
      .handle("getOrganisation", () =>
        Effect.gen(function*() {
          const actor = yield* limitedActor
          const found = yield* wireErrors(organiser.organisation(actor))
          // A key outlives nothing: organisations are never deleted, so this is a key of a vanished one.
          if (Option.isNone(found)) return yield* apiError("Unauthenticated")
          return { data: toOrganisationWire(found.value) }
        }))
      .handle("listEvents", ({ request }) =>
        Effect.gen(function*() {
          const { actor, page } = yield* pageThenLimit(request, createdCodec)
          return listBody(yield* wireErrors(organiser.listEvents(actor, page)), eventKeyOf, createdCodec, toEventWire)
        }))
      .handleRaw("createEvent", ({ request }) =>
        Effect.gen(function*() {
          const { actor, body } = yield* bodyThenLimit(request, maxBodyBytes)
          return { data: toEventWire(yield* wireErrors(organiser.createEvent(actor, body))) }
        }))
      .handle("getEvent", ({ params }) =>
        Effect.gen(function*() {
          const actor = yield* limitedActor
          return { data: toEventWire(yield* wireErrors(organiser.getEvent(actor, params.eventId))) }
        }))
      .handleRaw("updateEvent", ({ params, request }) =>
        Effect.gen(function*() {
          const { actor, body } = yield* bodyThenLimit(request, maxBodyBytes)
          return { data: toEventWire(yield* wireErrors(organiser.updateEvent(actor, params.eventId, body))) }
        }))
      .handle("deleteEvent", ({ params }) =>
        Effect.gen(function*() {
          const actor = yield* limitedActor
          yield* wireErrors(organiser.deleteEvent(actor, params.eventId))
        }))
      .handle("listTimeSlots", ({ params, request }) =>
        Effect.gen(function*() {
          const { actor, page } = yield* pageThenLimit(request, slotCodec)
          const result = yield* wireErrors(organiser.listTimeSlots(actor, params.eventId, page))
          return listBody(result, slotKeyOf, slotCodec, toAdminTimeSlotWire)
        }))
      .handleRaw("createTimeSlot", ({ params, request }) =>
        Effect.gen(function*() {
          const { actor, body } = yield* bodyThenLimit(request, maxBodyBytes)
          return { data: toAdminTimeSlotWire(yield* wireErrors(organiser.createTimeSlot(actor, params.eventId, body))) }
        }))
      .handleRaw("updateTimeSlot", ({ params, request }) =>
        Effect.gen(function*() {
          const { actor, body } = yield* bodyThenLimit(request, maxBodyBytes)
          return { data: toAdminTimeSlotWire(yield* wireErrors(organiser.updateTimeSlot(actor, params.slotId, body))) }
        }))
      .handle("deleteTimeSlot", ({ params }) =>
        Effect.gen(function*() {
          const actor = yield* limitedActor
          yield* wireErrors(organiser.deleteTimeSlot(actor, params.slotId))
        }))
      .handle("listEventSections", ({ params, request }) =>
        Effect.gen(function*() {
          const { actor, page } = yield* pageThenLimit(request, sectionCodec)
          const result = yield* wireErrors(organiser.listEventSections(actor, params.eventId, page))
          return listBody(result, sectionKeyOf, sectionCodec, toEventSectionWire)
        }))
      .handleRaw("createEventSection", ({ params, request }) =>
        Effect.gen(function*() {
          const { actor, body } = yield* bodyThenLimit(request, maxBodyBytes)
          return { data: toEventSectionWire(yield* wireErrors(organiser.createEventSection(actor, params.eventId, body))) }
        }))
      .handleRaw("updateEventSection", ({ params, request }) =>
        Effect.gen(function*() {
          const { actor, body } = yield* bodyThenLimit(request, maxBodyBytes)
          return { data: toEventSectionWire(yield* wireErrors(organiser.updateEventSection(actor, params.sectionId, body))) }
        }))
      .handle("deleteEventSection", ({ params }) =>
        Effect.gen(function*() {
          const actor = yield* limitedActor
          yield* wireErrors(organiser.deleteEventSection(actor, params.sectionId))
        }))
      .handle("auditLog", ({ request }) =>
        Effect.gen(function*() {
          const { actor, page } = yield* pageThenLimit(request, createdCodec)
          return listBody(yield* wireErrors(organiser.auditLog(actor, page)), auditKeyOf, createdCodec, toAuditWire)
        }))
  })
)
