/**
 * Handlers of the `catalog` group: after the key (middleware), each reads its body (415, 413, 400) or its
 * query (400 INVALID_QUERY), counts the request against the `admin` limit (429), then calls only the
 * domain's `Organiser` use cases (404, 422, 409).
 */
import { Effect, Option } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { auditKeyOf, eventKeyOf, Organiser, sectionKeyOf, slotKeyOf } from "@forms/domain"
import { Api } from "../../Api.js"
import { apiError, type DomainError, fromDomainError } from "../../http/errorTable.js"
import { createdCodec, listBody, sectionCodec, slotCodec } from "../../http/paging.js"
import { HttpConfig } from "../../HttpConfig.js"
import { bodyThenLimit, limitedActor, pageThenLimit } from "../organiserSteps.js"
import { toAuditWire, toEventSectionWire, toEventWire, toOrganisationWire, toTimeSlotWire } from "./wire.js"

const json = (data: unknown, status = 200) => HttpServerResponse.jsonUnsafe({ data }, { status })
const listJson = (body: unknown) => HttpServerResponse.jsonUnsafe(body)
const noContent = HttpServerResponse.empty({ status: 204 })

const domain = <A, E extends DomainError, R>(effect: Effect.Effect<A, E, R>) => Effect.mapError(effect, fromDomainError)

export const CatalogHandlers = HttpApiBuilder.group(
  Api,
  "catalog",
  Effect.fn(function*(handlers) {
    const organiser = yield* Organiser
    const config = yield* HttpConfig

    return handlers
      .handleRaw("getOrganisation", () =>
        Effect.gen(function*() {
          const actor = yield* limitedActor
          const found = yield* domain(organiser.organisation(actor))
          // A key outlives nothing: organisations are never deleted, so this is a key of a vanished one.
          if (Option.isNone(found)) return yield* apiError("Unauthenticated")
          return json(toOrganisationWire(found.value))
        }))
      .handleRaw("listEvents", ({ request }) =>
        Effect.gen(function*() {
          const { actor, page } = yield* pageThenLimit(request, createdCodec)
          const result = yield* domain(organiser.listEvents(actor, page))
          return listJson(listBody(result, eventKeyOf, createdCodec, toEventWire))
        }))
      .handleRaw("createEvent", ({ request }) =>
        Effect.gen(function*() {
          const { actor, body } = yield* bodyThenLimit(request, config.maxBodyBytes)
          return json(toEventWire(yield* domain(organiser.createEvent(actor, body))), 201)
        }))
      .handleRaw("getEvent", ({ params }) =>
        Effect.gen(function*() {
          const actor = yield* limitedActor
          return json(toEventWire(yield* domain(organiser.getEvent(actor, params.eventId))))
        }))
      .handleRaw("updateEvent", ({ params, request }) =>
        Effect.gen(function*() {
          const { actor, body } = yield* bodyThenLimit(request, config.maxBodyBytes)
          return json(toEventWire(yield* domain(organiser.updateEvent(actor, params.eventId, body))))
        }))
      .handleRaw("deleteEvent", ({ params }) =>
        Effect.gen(function*() {
          const actor = yield* limitedActor
          yield* domain(organiser.deleteEvent(actor, params.eventId))
          return noContent
        }))
      .handleRaw("listTimeSlots", ({ params, request }) =>
        Effect.gen(function*() {
          const { actor, page } = yield* pageThenLimit(request, slotCodec)
          const result = yield* domain(organiser.listTimeSlots(actor, params.eventId, page))
          return listJson(listBody(result, slotKeyOf, slotCodec, toTimeSlotWire))
        }))
      .handleRaw("createTimeSlot", ({ params, request }) =>
        Effect.gen(function*() {
          const { actor, body } = yield* bodyThenLimit(request, config.maxBodyBytes)
          return json(toTimeSlotWire(yield* domain(organiser.createTimeSlot(actor, params.eventId, body))), 201)
        }))
      .handleRaw("updateTimeSlot", ({ params, request }) =>
        Effect.gen(function*() {
          const { actor, body } = yield* bodyThenLimit(request, config.maxBodyBytes)
          return json(toTimeSlotWire(yield* domain(organiser.updateTimeSlot(actor, params.slotId, body))))
        }))
      .handleRaw("deleteTimeSlot", ({ params }) =>
        Effect.gen(function*() {
          const actor = yield* limitedActor
          yield* domain(organiser.deleteTimeSlot(actor, params.slotId))
          return noContent
        }))
      .handleRaw("listEventSections", ({ params, request }) =>
        Effect.gen(function*() {
          const { actor, page } = yield* pageThenLimit(request, sectionCodec)
          const result = yield* domain(organiser.listEventSections(actor, params.eventId, page))
          return listJson(listBody(result, sectionKeyOf, sectionCodec, toEventSectionWire))
        }))
      .handleRaw("createEventSection", ({ params, request }) =>
        Effect.gen(function*() {
          const { actor, body } = yield* bodyThenLimit(request, config.maxBodyBytes)
          return json(toEventSectionWire(yield* domain(organiser.createEventSection(actor, params.eventId, body))), 201)
        }))
      .handleRaw("updateEventSection", ({ params, request }) =>
        Effect.gen(function*() {
          const { actor, body } = yield* bodyThenLimit(request, config.maxBodyBytes)
          return json(toEventSectionWire(yield* domain(organiser.updateEventSection(actor, params.sectionId, body))))
        }))
      .handleRaw("deleteEventSection", ({ params }) =>
        Effect.gen(function*() {
          const actor = yield* limitedActor
          yield* domain(organiser.deleteEventSection(actor, params.sectionId))
          return noContent
        }))
      .handleRaw("auditLog", ({ request }) =>
        Effect.gen(function*() {
          const { actor, page } = yield* pageThenLimit(request, createdCodec)
          const result = yield* domain(organiser.auditLog(actor, page))
          return listJson(listBody(result, auditKeyOf, createdCodec, toAuditWire))
        }))
  })
)
