/** The organiser routes' bodies on the wire (CONTRACT §12): resources, `{ data, next_cursor }` lists, request bodies. */
import { Schema } from "effect"
import {
  type AdminEngagement,
  type AdminArtist,
  type AdminEvent,
  type ArtistDetail,
  type EngagementDetail,
  type AdminEventSection,
  type AdminTimeSlot,
  type AuditEntry,
  type Organisation
} from "@forms/domain"
import { durationHours, remainingPlaces } from "@forms/domain/internal"
import { TimeSlotWire } from "./Registration.js"

const iso = (ms: number): string => new Date(ms).toISOString()

const list = <S extends Schema.Top>(item: S, identifier: string) =>
  Schema.Struct({ data: Schema.Array(item), next_cursor: Schema.NullOr(Schema.String) }).annotate({ identifier })
const one = <S extends Schema.Top>(item: S, identifier: string) => Schema.Struct({ data: item }).annotate({ identifier })

export const OrganisationWire = Schema.Struct({ id: Schema.String, name: Schema.String }).annotate({
  identifier: "Organisation"
})
export const OrganisationEnvelope = one(OrganisationWire, "OrganisationEnvelope")
export const toOrganisationWire = (o: Organisation): typeof OrganisationWire.Type => ({ id: o.id, name: o.name })

export const EventWire = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  parent_event_id: Schema.NullOr(Schema.String),
  created_at: Schema.String
}).annotate({ identifier: "AdminEvent" })
export const EventEnvelope = one(EventWire, "AdminEventEnvelope")
export const EventList = list(EventWire, "AdminEventList")
export const toEventWire = (e: AdminEvent): typeof EventWire.Type => ({
  id: e.id,
  name: e.name,
  parent_event_id: e.parent_event_id,
  created_at: iso(e.created_at)
})

export const AdminTimeSlotWire = Schema.Struct({
  /** With `capacity` and `remaining` (CONTRACT §15), as the public list shows them. */
  ...TimeSlotWire.fields
}).annotate({ identifier: "AdminTimeSlot" })
export const TimeSlotEnvelope = one(AdminTimeSlotWire, "AdminTimeSlotEnvelope")
export const TimeSlotList = list(AdminTimeSlotWire, "AdminTimeSlotList")
export const toTimeSlotWire = (t: AdminTimeSlot): typeof AdminTimeSlotWire.Type => ({
  id: t.id,
  name: t.name,
  date: t.date,
  start_time: t.start_time,
  end_time: t.end_time,
  duration_hours: durationHours(t.start_time, t.end_time),
  event_id: t.event_id,
  event_name: t.event_name,
  capacity: t.capacity,
  remaining: remainingPlaces(t.capacity, t.holders)
})

export const EventSectionWire = Schema.Struct({
  id: Schema.String,
  event_id: Schema.String,
  name: Schema.String,
  type: Schema.String,
  show_in_registration: Schema.Boolean,
  position: Schema.Number
}).annotate({ identifier: "AdminEventSection" })
export const EventSectionEnvelope = one(EventSectionWire, "AdminEventSectionEnvelope")
export const EventSectionList = list(EventSectionWire, "AdminEventSectionList")
export const toEventSectionWire = (s: AdminEventSection): typeof EventSectionWire.Type => ({
  id: s.id,
  event_id: s.event_id,
  name: s.name,
  type: s.type,
  show_in_registration: s.show_in_registration,
  position: s.position
})

export const AuditEntryWire = Schema.Struct({
  id: Schema.String,
  at: Schema.String,
  api_key_id: Schema.NullOr(Schema.String),
  action: Schema.String,
  resource_type: Schema.String,
  resource_id: Schema.String
}).annotate({ identifier: "AuditEntry" })
export const AuditList = list(AuditEntryWire, "AuditList")
export const toAuditWire = (a: AuditEntry): typeof AuditEntryWire.Type => ({
  id: a.id,
  at: iso(a.at),
  api_key_id: a.api_key_id,
  action: a.action,
  resource_type: a.resource_type,
  resource_id: a.resource_id
})

// Request bodies, for the document and the typed client. The handlers check bodies member by member
// themselves (dotted-path 422s, unknown members refused), so these are never used to decode.
export const EventBody = Schema.Struct({
  name: Schema.String,
  parent_event_id: Schema.optionalKey(Schema.NullOr(Schema.String))
}).annotate({ identifier: "AdminEventBody" })
export const EventPatchBody = Schema.Struct({
  name: Schema.optionalKey(Schema.String),
  parent_event_id: Schema.optionalKey(Schema.NullOr(Schema.String))
}).annotate({ identifier: "AdminEventPatch" })
const slotMembers = {
  name: Schema.String,
  date: Schema.String,
  start_time: Schema.String,
  end_time: Schema.String,
  capacity: Schema.optionalKey(Schema.NullOr(Schema.Int))
}
export const TimeSlotBody = Schema.Struct(slotMembers).annotate({ identifier: "AdminTimeSlotBody" })
export const TimeSlotPatchBody = Schema.Struct({
  name: Schema.optionalKey(Schema.String),
  date: Schema.optionalKey(Schema.String),
  start_time: Schema.optionalKey(Schema.String),
  end_time: Schema.optionalKey(Schema.String),
  capacity: Schema.optionalKey(Schema.NullOr(Schema.Int))
}).annotate({ identifier: "AdminTimeSlotPatch" })
export const EventSectionBody = Schema.Struct({
  name: Schema.String,
  type: Schema.optionalKey(Schema.String),
  show_in_registration: Schema.optionalKey(Schema.Boolean),
  position: Schema.optionalKey(Schema.Int)
}).annotate({ identifier: "AdminEventSectionBody" })
export const EventSectionPatchBody = Schema.Struct({
  name: Schema.optionalKey(Schema.String),
  type: Schema.optionalKey(Schema.String),
  show_in_registration: Schema.optionalKey(Schema.Boolean),
  position: Schema.optionalKey(Schema.Int)
}).annotate({ identifier: "AdminEventSectionPatch" })

export const ArtistWire = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  deleted_at: Schema.NullOr(Schema.String)
}).annotate({ identifier: "AdminArtist" })
export const ArtistEnvelope = one(ArtistWire, "AdminArtistEnvelope")
export const ArtistList = list(ArtistWire, "AdminArtistList")
export const toArtistWire = (a: AdminArtist): typeof ArtistWire.Type => ({
  id: a.id,
  name: a.name,
  deleted_at: a.deleted_at === null ? null : iso(a.deleted_at)
})
/** The artist with `profile`: what the portal's answers applied (§5). */
export const ArtistDetailWire = Schema.Struct({
  ...ArtistWire.fields,
  profile: Schema.Record(Schema.String, Schema.Unknown)
}).annotate({ identifier: "AdminArtistDetail" })
export const ArtistDetailEnvelope = one(ArtistDetailWire, "AdminArtistDetailEnvelope")
export const toArtistDetailWire = (a: ArtistDetail): typeof ArtistDetailWire.Type => ({ ...toArtistWire(a), profile: a.profile })
export const ArtistBody = Schema.Struct({ name: Schema.String }).annotate({ identifier: "AdminArtistBody" })

const AdvanceSectionWire = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  position: Schema.Number,
  status: Schema.Literals(["pending", "submitted"]),
  submitted_at: Schema.NullOr(Schema.String)
})
export const EngagementWire = Schema.Struct({
  id: Schema.String,
  event_id: Schema.String,
  master_artist_id: Schema.String,
  advance_sections: Schema.Array(AdvanceSectionWire),
  created_at: Schema.String
}).annotate({ identifier: "AdminEngagement" })
export const EngagementList = list(EngagementWire, "AdminEngagementList")
export const EngagementEnvelope = one(EngagementWire, "AdminEngagementEnvelope")
export const EngagementBody = Schema.Struct({
  event_id: Schema.String,
  master_artist_id: Schema.String,
  advance_sections: Schema.Array(
    Schema.Struct({ name: Schema.String, position: Schema.Int }).annotate({ identifier: "AdminAdvanceSectionBody" })
  )
}).annotate({ identifier: "AdminEngagementBody" })
export const toEngagementWire = (e: AdminEngagement): typeof EngagementWire.Type => ({
  id: e.id,
  event_id: e.event_id,
  master_artist_id: e.master_artist_id,
  advance_sections: e.advance_sections.map((s) => ({
    id: s.id,
    name: s.name,
    position: s.position,
    status: s.status,
    submitted_at: s.submitted_at === null ? null : iso(s.submitted_at)
  })),
  created_at: iso(e.created_at)
})
/** The list item plus `advance` (applied by §5) and `values` (the advance draft's values). */
export const EngagementDetailWire = Schema.Struct({
  ...EngagementWire.fields,
  advance: Schema.Record(Schema.String, Schema.Unknown),
  values: Schema.Record(Schema.String, Schema.Unknown)
}).annotate({ identifier: "AdminEngagementDetail" })
export const EngagementDetailEnvelope = one(EngagementDetailWire, "AdminEngagementDetailEnvelope")
export const toEngagementDetailWire = (e: EngagementDetail): typeof EngagementDetailWire.Type => ({
  ...toEngagementWire(e),
  advance: e.advance,
  values: e.values
})
export const PortalLinkEnvelope = one(
  Schema.Struct({ portal_url: Schema.String, page_url: Schema.String }).annotate({ identifier: "PortalLink" }),
  "PortalLinkEnvelope"
)
