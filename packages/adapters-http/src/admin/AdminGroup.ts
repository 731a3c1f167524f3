/** The `admin` group of the HTTP API (CONTRACT §12): organiser routes behind the bearer security scheme. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import {
  ApiConflict,
  ApiInternal,
  ApiMalformedJson,
  ApiNotFound,
  ApiRateLimited,
  ApiUnavailable,
  requestShapeErrors
} from "../wire/ErrorEnvelope.js"
import {
  EngagementBody,
  EngagementDetailEnvelope,
  EngagementEnvelope,
  EngagementList,
  PortalLinkEnvelope,
  ArtistBody,
  ArtistDetailEnvelope,
  ArtistEnvelope,
  ArtistList,
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
} from "../wire/Admin.js"
import { OrganiserAuth } from "./OrganiserAuth.js"

// Path parameters are plain strings: a malformed id is an unknown one (404 in its turn).
const eventId = { eventId: Schema.String }
const slotId = { slotId: Schema.String }
const sectionId = { sectionId: Schema.String }
const artistId = { artistId: Schema.String }
const engagementId = { engagementId: Schema.String }
// 401 comes from the middleware; every route may answer 429 and the limit headers.
const always = [ApiRateLimited, ApiInternal, ApiUnavailable] as const
const read = [ApiNotFound, ...always] as const
const write = [...requestShapeErrors, ApiNotFound, ApiConflict, ...always] as const
const listed = [ApiMalformedJson, ApiNotFound, ...always] as const
const Created = <S extends Schema.Top>(schema: S) => schema.pipe(HttpApiSchema.status(201))

const doc = (summary: string, identifier: string) => OpenApi.annotations({ summary, identifier })
const pagingNote = " Query: `limit` 1–200 (default 50), `cursor` (the `next_cursor` of the page before)."

export class AdminGroup extends HttpApiGroup.make("admin")
  .add(
    HttpApiEndpoint.get("getOrganisation", "/admin/organisation", { success: OrganisationEnvelope, error: read })
      .annotateMerge(doc("The key's organisation", "adminGetOrganisation")),
    HttpApiEndpoint.get("listEvents", "/admin/events", { success: EventList, error: listed })
      .annotateMerge(doc("List events, newest first." + pagingNote, "adminListEvents")),
    HttpApiEndpoint.post("createEvent", "/admin/events", { payload: EventBody, success: Created(EventEnvelope), error: write })
      .annotateMerge(doc("Create an event", "adminCreateEvent")),
    HttpApiEndpoint.get("getEvent", "/admin/events/:eventId", { params: eventId, success: EventEnvelope, error: read })
      .annotateMerge(doc("Get an event", "adminGetEvent")),
    HttpApiEndpoint.patch("updateEvent", "/admin/events/:eventId", {
      params: eventId,
      payload: EventPatchBody,
      success: EventEnvelope,
      error: write
    }).annotateMerge(doc("Change an event", "adminUpdateEvent")),
    HttpApiEndpoint.delete("deleteEvent", "/admin/events/:eventId", {
      params: eventId,
      success: HttpApiSchema.NoContent,
      error: write
    }).annotateMerge(doc("Delete an event (409 IN_USE while anything refers to it)", "adminDeleteEvent")),
    HttpApiEndpoint.get("listTimeSlots", "/admin/events/:eventId/time-slots", {
      params: eventId,
      success: TimeSlotList,
      error: listed
    }).annotateMerge(doc("List an event's time slots by date, start time, name." + pagingNote, "adminListTimeSlots")),
    HttpApiEndpoint.post("createTimeSlot", "/admin/events/:eventId/time-slots", {
      params: eventId,
      payload: TimeSlotBody,
      success: Created(TimeSlotEnvelope),
      error: write
    }).annotateMerge(doc("Create a time slot", "adminCreateTimeSlot")),
    HttpApiEndpoint.patch("updateTimeSlot", "/admin/time-slots/:slotId", {
      params: slotId,
      payload: TimeSlotPatchBody,
      success: TimeSlotEnvelope,
      error: write
    }).annotateMerge(doc("Change a time slot", "adminUpdateTimeSlot")),
    HttpApiEndpoint.delete("deleteTimeSlot", "/admin/time-slots/:slotId", {
      params: slotId,
      success: HttpApiSchema.NoContent,
      error: write
    }).annotateMerge(doc("Delete a time slot", "adminDeleteTimeSlot")),
    HttpApiEndpoint.get("listEventSections", "/admin/events/:eventId/sections", {
      params: eventId,
      success: EventSectionList,
      error: listed
    }).annotateMerge(doc("List an event's sections by position, name." + pagingNote, "adminListEventSections")),
    HttpApiEndpoint.post("createEventSection", "/admin/events/:eventId/sections", {
      params: eventId,
      payload: EventSectionBody,
      success: Created(EventSectionEnvelope),
      error: write
    }).annotateMerge(doc("Create an event section", "adminCreateEventSection")),
    HttpApiEndpoint.patch("updateEventSection", "/admin/event-sections/:sectionId", {
      params: sectionId,
      payload: EventSectionPatchBody,
      success: EventSectionEnvelope,
      error: write
    }).annotateMerge(doc("Change an event section", "adminUpdateEventSection")),
    HttpApiEndpoint.delete("deleteEventSection", "/admin/event-sections/:sectionId", {
      params: sectionId,
      success: HttpApiSchema.NoContent,
      error: write
    }).annotateMerge(doc("Delete an event section", "adminDeleteEventSection")),
    HttpApiEndpoint.get("auditLog", "/admin/audit-log", { success: AuditList, error: listed })
      .annotateMerge(doc("The organisation's audit log, newest first." + pagingNote, "adminAuditLog")),
    HttpApiEndpoint.get("listArtists", "/admin/artists", { success: ArtistList, error: listed })
      .annotateMerge(doc("List master artists, newest first (soft-deleted ones too)." + pagingNote, "adminListArtists")),
    HttpApiEndpoint.post("createArtist", "/admin/artists", { payload: ArtistBody, success: Created(ArtistEnvelope), error: write })
      .annotateMerge(doc("Create a master artist", "adminCreateArtist")),
    HttpApiEndpoint.get("getArtist", "/admin/artists/:artistId", { params: artistId, success: ArtistDetailEnvelope, error: read })
      .annotateMerge(doc("Get an artist with its profile (what the portal applied)", "adminGetArtist")),
    HttpApiEndpoint.delete("deleteArtist", "/admin/artists/:artistId", {
      params: artistId,
      success: HttpApiSchema.NoContent,
      error: write
    }).annotateMerge(doc("Soft-delete an artist: its portals answer 410 ARTIST_GONE", "adminDeleteArtist")),
    HttpApiEndpoint.get("listEngagements", "/admin/engagements", { success: EngagementList, error: listed })
      .annotateMerge(doc("List engagements with their advance sections, newest first." + pagingNote, "adminListEngagements")),
    HttpApiEndpoint.post("createEngagement", "/admin/engagements", {
      payload: EngagementBody,
      success: Created(EngagementEnvelope),
      error: write
    }).annotateMerge(doc(
      "Create an engagement of an artist at an event, with its advance sections (no portal token yet: " +
        "POST …/portal-link issues one). 422 `in` for an event or artist not of the organisation, or a " +
        "soft-deleted artist; at most 100 advance sections.",
      "adminCreateEngagement"
    )),
    HttpApiEndpoint.get("getEngagement", "/admin/engagements/:engagementId", {
      params: engagementId,
      success: EngagementDetailEnvelope,
      error: read
    }).annotateMerge(doc("Get an engagement with `advance` and the advance draft's `values`", "adminGetEngagement")),
    HttpApiEndpoint.post("portalLink", "/admin/engagements/:engagementId/portal-link", {
      params: engagementId,
      success: PortalLinkEnvelope,
      error: write
    }).annotateMerge(doc("A new portal link, shown this once; the old one stops working", "adminPortalLink"))
  )
  .middleware(OrganiserAuth)
  .annotateMerge(OpenApi.annotations({
    title: "Organiser",
    description: "The organiser API: every route needs `Authorization: Bearer <api key>` and sees only the key's " +
      "organisation. Checks run in the order key (401) → body (415, 413, 400) → query (400 INVALID_QUERY) → the " +
      "`admin` limit (429) → ids in the path (404) → body members (422, keyed by dotted path) → conflicts (409). " +
      "Answers from the limit step on carry `RateLimit-Policy` and `RateLimit`."
  }))
{}
