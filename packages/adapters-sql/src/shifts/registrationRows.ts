/** Rows of events, time slots and event sections as a registration reads them; the organiser's reads build on them. */
import { Schema } from "effect"
import { EventRecord, EventSectionRecord, SlotAvailability } from "@forms/domain"

export const EventTreeRow = EventRecord

/**
 * Over `time_slots t`: its confirmed places (`holders`), whether it has a waitlist, and the places waiting (none
 * once it has started: they expired), by the places' primary key and the waitlist's index.
 */
export const slotPlaceColumns = `(SELECT count(*)::int FROM slot_places p WHERE p.slot_id = t.id AND p.status = 'confirmed') AS holders,
  t.waitlist, (SELECT count(*)::int FROM slot_places p WHERE p.slot_id = t.id AND p.status = 'waitlisted'
    AND t.starts_at > now()) AS waitlisted`

/** The instants' columns over `time_slots t`, as epoch ms. */
export const slotInstantColumns = ["starts_at", "ends_at", "signup_opens_at", "signup_closes_at"]
  .map((column) => `floor(extract(epoch from t.${column}) * 1000)::float8 AS ${column}`)
  .join(", ")

/** A slot with its places: `to_char` dates and times, instants as epoch ms, places counted. */
export const SlotRow = SlotAvailability

/** A slot a submission chose, with its event's parent (the festival it belongs to). */
export const ChosenSlotRow = Schema.Struct({ ...SlotRow.fields, parent_event_id: Schema.NullOr(Schema.String) })

export const EventSectionRow = EventSectionRecord
