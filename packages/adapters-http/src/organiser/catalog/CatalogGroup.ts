/**
 * The `catalog` group of the organiser API: the key's organisation, its events with their time slots and
 * sections, and its audit log.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "effect/http-api"
import { created, operationDoc, organiserErrors, organiserTag, pagingNote } from "../organiserEndpoints.js"
import { OrganiserAuth } from "../OrganiserAuth.js"
import {
  AuditList,
  EventBody,
  EventEnvelope,
  EventList,
  EventPatchBody,
  EventSectionBody,
  EventSectionEnvelope,
  EventSectionList,
  EventSectionPatchBody,
  OrganisationEnvelope,
  TimeSlotBody,
  TimeSlotEnvelope,
  TimeSlotList,
  TimeSlotPatchBody
} from "./wire.js"

// Path parameters are plain strings: a malformed id is an unknown one (404 in its turn).
const eventId = { eventId: Schema.String }
const slotId = { slotId: Schema.String }
const sectionId = { sectionId: Schema.String }

export class CatalogGroup extends HttpApiGroup.make("catalog")
  .add(
    HttpApiEndpoint.get("getOrganisation", "/admin/organisation", { success: OrganisationEnvelope, error: organiserErrors.read })
      .annotateMerge(operationDoc("The key's organisation", "adminGetOrganisation")),
    HttpApiEndpoint.get("listEvents", "/admin/events", { success: EventList, error: organiserErrors.listed })
      .annotateMerge(operationDoc("List events, newest first." + pagingNote, "adminListEvents")),
    HttpApiEndpoint.post("createEvent", "/admin/events", { payload: EventBody, success: created(EventEnvelope), error: organiserErrors.write })
      .annotateMerge(operationDoc("Create an event", "adminCreateEvent")),
    HttpApiEndpoint.get("getEvent", "/admin/events/:eventId", { params: eventId, success: EventEnvelope, error: organiserErrors.read })
      .annotateMerge(operationDoc("Get an event", "adminGetEvent")),
    HttpApiEndpoint.patch("updateEvent", "/admin/events/:eventId", {
      params: eventId,
      payload: EventPatchBody,
      success: EventEnvelope,
      error: organiserErrors.write
    }).annotateMerge(operationDoc("Change an event", "adminUpdateEvent")),
    HttpApiEndpoint.delete("deleteEvent", "/admin/events/:eventId", {
      params: eventId,
      success: HttpApiSchema.NoContent,
      error: organiserErrors.write
    }).annotateMerge(operationDoc("Delete an event (409 IN_USE while anything refers to it)", "adminDeleteEvent")),
    HttpApiEndpoint.get("listTimeSlots", "/admin/events/:eventId/time-slots", {
      params: eventId,
      success: TimeSlotList,
      error: organiserErrors.listed
    }).annotateMerge(operationDoc("List an event's time slots by date, start time, name." + pagingNote, "adminListTimeSlots")),
    HttpApiEndpoint.post("createTimeSlot", "/admin/events/:eventId/time-slots", {
      params: eventId,
      payload: TimeSlotBody,
      success: created(TimeSlotEnvelope),
      error: organiserErrors.write
    }).annotateMerge(operationDoc("Create a time slot", "adminCreateTimeSlot")),
    HttpApiEndpoint.patch("updateTimeSlot", "/admin/time-slots/:slotId", {
      params: slotId,
      payload: TimeSlotPatchBody,
      success: TimeSlotEnvelope,
      error: organiserErrors.write
    }).annotateMerge(operationDoc("Change a time slot", "adminUpdateTimeSlot")),
    HttpApiEndpoint.delete("deleteTimeSlot", "/admin/time-slots/:slotId", {
      params: slotId,
      success: HttpApiSchema.NoContent,
      error: organiserErrors.write
    }).annotateMerge(operationDoc("Delete a time slot", "adminDeleteTimeSlot")),
    HttpApiEndpoint.get("listEventSections", "/admin/events/:eventId/sections", {
      params: eventId,
      success: EventSectionList,
      error: organiserErrors.listed
    }).annotateMerge(operationDoc("List an event's sections by position, name." + pagingNote, "adminListEventSections")),
    HttpApiEndpoint.post("createEventSection", "/admin/events/:eventId/sections", {
      params: eventId,
      payload: EventSectionBody,
      success: created(EventSectionEnvelope),
      error: organiserErrors.write
    }).annotateMerge(operationDoc("Create an event section", "adminCreateEventSection")),
    HttpApiEndpoint.patch("updateEventSection", "/admin/event-sections/:sectionId", {
      params: sectionId,
      payload: EventSectionPatchBody,
      success: EventSectionEnvelope,
      error: organiserErrors.write
    }).annotateMerge(operationDoc("Change an event section", "adminUpdateEventSection")),
    HttpApiEndpoint.delete("deleteEventSection", "/admin/event-sections/:sectionId", {
      params: sectionId,
      success: HttpApiSchema.NoContent,
      error: organiserErrors.write
    }).annotateMerge(operationDoc("Delete an event section", "adminDeleteEventSection")),
    HttpApiEndpoint.get("auditLog", "/admin/audit-log", { success: AuditList, error: organiserErrors.listed })
      .annotateMerge(operationDoc("The organisation's audit log, newest first." + pagingNote, "adminAuditLog"))
  )
  .middleware(OrganiserAuth)
  .annotateMerge(organiserTag)
{}
