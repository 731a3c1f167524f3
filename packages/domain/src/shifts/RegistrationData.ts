/** Port: the event tree of a form's event, with its time slots and registration sections. */
import { Context, type Effect, Schema } from "effect"
import type { Unavailable } from "../shared/errors.js"

export const EventRecord = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  parent_event_id: Schema.NullOr(Schema.String)
})
export type EventRecord = typeof EventRecord.Type

export const TimeSlotRecord = Schema.Struct({
  id: Schema.String,
  event_id: Schema.String,
  name: Schema.String,
  /** YYYY-MM-DD */
  date: Schema.String,
  /** HH:MM */
  start_time: Schema.String,
  end_time: Schema.String,
  /** A positive integer; null or absent: unlimited (CONTRACT §15). */
  capacity: Schema.optional(Schema.NullOr(Schema.Number))
})
export type TimeSlotRecord = typeof TimeSlotRecord.Type

/** A slot with its places (CONTRACT §15): `holders` counts the submitted submissions that hold it, from every form. */
export const SlotAvailability = Schema.Struct({
  ...TimeSlotRecord.fields,
  capacity: Schema.NullOr(Schema.Number),
  holders: Schema.Number
})
export type SlotAvailability = typeof SlotAvailability.Type

/** A chosen slot as the `time_slots` rules need it (shifts/slotChoices.ts). */
export const ChosenSlot = Schema.Struct({
  id: Schema.String,
  /** Named in the `full` message. */
  name: Schema.String,
  event_id: Schema.String,
  /** The parent of the slot's event: a form of that parent (a festival) lists the slot too. */
  parent_event_id: Schema.NullOr(Schema.String),
  date: Schema.String,
  start_time: Schema.String,
  end_time: Schema.String,
  capacity: Schema.NullOr(Schema.Number),
  holders: Schema.Number
})
export type ChosenSlot = typeof ChosenSlot.Type

export const EventSectionRecord = Schema.Struct({
  id: Schema.String,
  event_id: Schema.String,
  name: Schema.String,
  type: Schema.String,
  show_in_registration: Schema.Boolean,
  position: Schema.Number
})
export type EventSectionRecord = typeof EventSectionRecord.Type

export class RegistrationData extends Context.Service<RegistrationData, {
  /** The event and its direct child events (empty when the event does not exist). */
  readonly eventTree: (eventId: string) => Effect.Effect<ReadonlyArray<EventRecord>, Unavailable>
  /** The slots of the events, each with its capacity and holders (one read). */
  readonly timeSlots: (eventIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<SlotAvailability>, Unavailable>
  /** The slots among `ids` that exist (unknown ids are left out), with their holders now. */
  readonly chosenSlots: (ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<ChosenSlot>, Unavailable>
  readonly sections: (
    eventIds: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyArray<EventSectionRecord>, Unavailable>
}>()("@forms/domain/RegistrationData") {}
