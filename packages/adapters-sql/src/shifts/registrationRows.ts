/** Rows of events, time slots and event sections as a registration reads them; the organiser's reads build on them. */
import { Schema } from "effect"
import { EventRecord, EventSectionRecord, SlotAvailability } from "@forms/domain"

export const EventTreeRow = EventRecord

/** A slot with its places: `to_char` dates and times, holders counted. */
export const SlotRow = SlotAvailability

/** A slot a submission chose, with its event's parent (the festival it belongs to). */
export const ChosenSlotRow = Schema.Struct({ ...SlotRow.fields, parent_event_id: Schema.NullOr(Schema.String) })

export const EventSectionRow = EventSectionRecord
