/** The catalog's records (CONTRACT §12): organisations, API keys, events, time slots, event sections, the audit log. */
import { Schema, Struct } from "effect"
import type { CreatedKey } from "../../shared/paging.js"
import { EventRecord, EventSectionRecord, SlotAvailability } from "../../shifts/RegistrationData.js"

export const Organisation = Schema.Struct({
  id: Schema.String,
  name: Schema.String
})
export type Organisation = typeof Organisation.Type

/** An API key as stored: never the key itself, only its first characters for recognising it. */
export const ApiKeyRecord = Schema.Struct({
  id: Schema.String,
  organisation_id: Schema.String,
  name: Schema.NullOr(Schema.String),
  /** The first 8 characters of the key (`fok_` and 4 more for generated keys). */
  prefix: Schema.String,
  created_at: Schema.Number,
  last_used_at: Schema.NullOr(Schema.Number),
  revoked_at: Schema.NullOr(Schema.Number)
})
export type ApiKeyRecord = typeof ApiKeyRecord.Type

/** An event as the organiser sees it: the stored record and when it was made. */
export const AdminEvent = Schema.Struct({
  ...EventRecord.fields,
  /** An IANA name, or null: the parent's zone, or UTC for a top-level event (CONTRACT §22). */
  timezone: Schema.NullOr(Schema.String),
  /** The zone the event's slots are in. */
  effective_timezone: Schema.String,
  /** Epoch ms. */
  created_at: Schema.Number
})
export type AdminEvent = typeof AdminEvent.Type

const { event_id, id, ...slot } = SlotAvailability.fields

/** A time slot with its places (shifts/RegistrationData) and its event's name, as the organiser lists it. */
export const AdminTimeSlot = Schema.Struct({ id, event_id, event_name: Schema.String, ...slot })
export type AdminTimeSlot = typeof AdminTimeSlot.Type

/** An event section as the organiser sees it: the stored record (shifts/RegistrationData). */
export const AdminEventSection = EventSectionRecord
export type AdminEventSection = EventSectionRecord

export const AuditEntry = Schema.Struct({
  id: Schema.String,
  /** Epoch ms. */
  at: Schema.Number,
  api_key_id: Schema.NullOr(Schema.String),
  /** `<resource>.<created|updated|deleted>` and the special actions of §12. */
  action: Schema.String,
  resource_type: Schema.String,
  resource_id: Schema.String
})
export type AuditEntry = typeof AuditEntry.Type

/** What an audit entry records besides its actor and time: ids only, never values. */
export const AuditRecord = AuditEntry.mapFields(Struct.pick(["action", "resource_type", "resource_id"]))
export type AuditRecord = typeof AuditRecord.Type

// Keyset positions: the sort key of the last row of a page (CONTRACT §12 order of each list).
export const SlotKey = Schema.Struct({
  date: Schema.String,
  start_time: Schema.String,
  name: Schema.String,
  id: Schema.String
})
export type SlotKey = typeof SlotKey.Type

export const SectionKey = Schema.Struct({
  position: Schema.Number,
  name: Schema.String,
  id: Schema.String
})
export type SectionKey = typeof SectionKey.Type

export const slotKeyOf = (slot: AdminTimeSlot): SlotKey => ({
  date: slot.date,
  start_time: slot.start_time,
  name: slot.name,
  id: slot.id
})

export const sectionKeyOf = (section: AdminEventSection): SectionKey => ({
  position: section.position,
  name: section.name,
  id: section.id
})

export const eventKeyOf = (event: AdminEvent): CreatedKey => ({ created_at: event.created_at, id: event.id })
export const auditKeyOf = (entry: AuditEntry): CreatedKey => ({ created_at: entry.at, id: entry.id })

// Inputs after validation.
export const EventInput = Schema.Struct({
  name: Schema.String,
  parent_event_id: Schema.NullOr(Schema.String),
  /** An IANA name as the time-zone data spells it, or null (absent: null). */
  timezone: Schema.optionalKey(Schema.NullOr(Schema.String))
})
export type EventInput = typeof EventInput.Type

export const EventPatch = Schema.Struct({
  name: Schema.optionalKey(Schema.String),
  parent_event_id: Schema.optionalKey(Schema.NullOr(Schema.String)),
  timezone: Schema.optionalKey(Schema.NullOr(Schema.String))
})
export type EventPatch = typeof EventPatch.Type

export const SlotInput = Schema.Struct({
  name: Schema.String,
  date: Schema.String,
  start_time: Schema.String,
  end_time: Schema.String,
  capacity: Schema.NullOr(Schema.Number),
  /** Epoch ms or null (absent: null). */
  signup_opens_at: Schema.optionalKey(Schema.NullOr(Schema.Number)),
  signup_closes_at: Schema.optionalKey(Schema.NullOr(Schema.Number)),
  /** Absent: false. */
  waitlist: Schema.optionalKey(Schema.Boolean)
})
export type SlotInput = typeof SlotInput.Type

export const SlotPatch = Schema.Struct({
  name: Schema.optionalKey(Schema.String),
  date: Schema.optionalKey(Schema.String),
  start_time: Schema.optionalKey(Schema.String),
  end_time: Schema.optionalKey(Schema.String),
  capacity: Schema.optionalKey(Schema.NullOr(Schema.Number)),
  signup_opens_at: Schema.optionalKey(Schema.NullOr(Schema.Number)),
  signup_closes_at: Schema.optionalKey(Schema.NullOr(Schema.Number)),
  waitlist: Schema.optionalKey(Schema.Boolean)
})
export type SlotPatch = typeof SlotPatch.Type

export const SectionInput = Schema.Struct({
  name: Schema.String,
  type: Schema.String,
  show_in_registration: Schema.Boolean,
  position: Schema.Number
})
export type SectionInput = typeof SectionInput.Type

export const SectionPatch = SectionInput.mapFields(Struct.map(Schema.optionalKey))
export type SectionPatch = typeof SectionPatch.Type
