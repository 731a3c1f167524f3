/** The catalog on the organiser's wire: the organisation, events, time slots, event sections, audit entries, and their bodies. */
import { Schema } from "effect"
import { AdminEvent, AdminEventSection, type AdminTimeSlot, AuditEntry, Organisation } from "@forms/domain"
import { instantHours, remainingPlaces } from "@forms/domain/internal"
import { envelopeOf, iso, isoOrNull, listOf } from "../../http/wireShapes.js"
import { TimeSlotWire } from "../../shifts/wire.js"
import { Capacity, WholePosition } from "../../http/wireNumbers.js"

export const OrganisationWire = Organisation.annotate({ identifier: "Organisation" })
export const OrganisationEnvelope = envelopeOf(OrganisationWire, "OrganisationEnvelope")
export const toOrganisationWire = (o: Organisation): typeof OrganisationWire.Type => ({ id: o.id, name: o.name })

/** The domain's event, `created_at` in ISO 8601. */
export const EventWire = AdminEvent.mapFields((f) => ({ ...f, created_at: Schema.String })).annotate({ identifier: "AdminEvent" })
export const EventEnvelope = envelopeOf(EventWire, "AdminEventEnvelope")
export const EventList = listOf(EventWire, "AdminEventList")
export const toEventWire = (e: AdminEvent): typeof EventWire.Type => ({
  id: e.id,
  name: e.name,
  parent_event_id: e.parent_event_id,
  timezone: e.timezone,
  effective_timezone: e.effective_timezone,
  created_at: iso(e.created_at)
})

export const AdminTimeSlotWire = Schema.Struct({
  /** With `capacity` and `remaining`, as the public list shows them. */
  ...TimeSlotWire.fields
}).annotate({ identifier: "AdminTimeSlot" })
export const TimeSlotEnvelope = envelopeOf(AdminTimeSlotWire, "AdminTimeSlotEnvelope")
export const TimeSlotList = listOf(AdminTimeSlotWire, "AdminTimeSlotList")
export const toAdminTimeSlotWire = (t: AdminTimeSlot): typeof AdminTimeSlotWire.Type => ({
  id: t.id,
  name: t.name,
  date: t.date,
  start_time: t.start_time,
  end_time: t.end_time,
  starts_at: iso(t.starts_at),
  ends_at: iso(t.ends_at),
  duration_hours: instantHours(t),
  signup_opens_at: isoOrNull(t.signup_opens_at),
  signup_closes_at: isoOrNull(t.signup_closes_at),
  event_id: t.event_id,
  event_name: t.event_name,
  capacity: t.capacity,
  remaining: remainingPlaces(t.capacity, t.holders),
  waitlist: t.waitlist,
  waitlisted: t.waitlisted
})

/** The domain's event section, its position a whole number in the API's range. */
export const EventSectionWire = AdminEventSection.mapFields((f) => ({ ...f, position: WholePosition })).annotate({
  identifier: "AdminEventSection"
})
export const EventSectionEnvelope = envelopeOf(EventSectionWire, "AdminEventSectionEnvelope")
export const EventSectionList = listOf(EventSectionWire, "AdminEventSectionList")
export const toEventSectionWire = (s: AdminEventSection): typeof EventSectionWire.Type => ({
  id: s.id,
  event_id: s.event_id,
  name: s.name,
  type: s.type,
  show_in_registration: s.show_in_registration,
  position: s.position
})

/** The domain's audit entry, `at` in ISO 8601. */
export const AuditEntryWire = AuditEntry.mapFields((f) => ({ ...f, at: Schema.String })).annotate({ identifier: "AuditEntry" })
export const AuditList = listOf(AuditEntryWire, "AuditList")
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
const TimeZoneMember = Schema.optionalKey(Schema.NullOr(Schema.String).annotate({
  description: "An IANA time-zone name (such as Europe/Amsterdam), or null: the parent's zone, or UTC for a top-level event."
}))
export const EventBody = Schema.Struct({
  name: Schema.String,
  parent_event_id: Schema.optionalKey(Schema.NullOr(Schema.String)),
  timezone: TimeZoneMember
}).annotate({ identifier: "AdminEventBody" })
export const EventPatchBody = Schema.Struct({
  name: Schema.optionalKey(Schema.String),
  parent_event_id: Schema.optionalKey(Schema.NullOr(Schema.String)),
  timezone: TimeZoneMember
}).annotate({ identifier: "AdminEventPatch" })
const SignupInstant = Schema.optionalKey(Schema.NullOr(Schema.String).annotate({
  description: "An RFC 3339 date-time with a zone, or null."
}))
const slotMembers = {
  name: Schema.String,
  date: Schema.String,
  start_time: Schema.String,
  end_time: Schema.String,
  capacity: Schema.optionalKey(Schema.NullOr(Capacity)),
  signup_opens_at: SignupInstant,
  signup_closes_at: SignupInstant,
  waitlist: Schema.optionalKey(Schema.Boolean.annotate({ description: "A full slot gives waitlisted places; only with a capacity." }))
}
export const TimeSlotBody = Schema.Struct(slotMembers).annotate({ identifier: "AdminTimeSlotBody" })
export const TimeSlotPatchBody = Schema.Struct({
  name: Schema.optionalKey(Schema.String),
  date: Schema.optionalKey(Schema.String),
  start_time: Schema.optionalKey(Schema.String),
  end_time: Schema.optionalKey(Schema.String),
  capacity: Schema.optionalKey(Schema.NullOr(Capacity)),
  signup_opens_at: SignupInstant,
  signup_closes_at: SignupInstant,
  waitlist: Schema.optionalKey(Schema.Boolean)
}).annotate({ identifier: "AdminTimeSlotPatch" })
export const EventSectionBody = Schema.Struct({
  name: Schema.String,
  type: Schema.optionalKey(Schema.String),
  show_in_registration: Schema.optionalKey(Schema.Boolean),
  position: Schema.optionalKey(WholePosition)
}).annotate({ identifier: "AdminEventSectionBody" })
export const EventSectionPatchBody = Schema.Struct({
  name: Schema.optionalKey(Schema.String),
  type: Schema.optionalKey(Schema.String),
  show_in_registration: Schema.optionalKey(Schema.Boolean),
  position: Schema.optionalKey(WholePosition)
}).annotate({ identifier: "AdminEventSectionPatch" })
