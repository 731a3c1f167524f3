/** Port: the event tree of a form's event, with its time slots and registration sections. */
import { Context, type Effect, Schema } from "effect"
import type { Unavailable } from "../shared/errors.js"

export const EventRecord = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  parent_event_id: Schema.NullOr(Schema.String),
  /** An IANA name, or null/absent: the parent's zone, or UTC for a top-level event (CONTRACT §22). */
  timezone: Schema.optionalKey(Schema.NullOr(Schema.String))
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
  capacity: Schema.optional(Schema.NullOr(Schema.Number)),
  /** RFC 3339 instants, or null/absent (CONTRACT §22): the sign-up window (absent close: the slot's start). */
  signup_opens_at: Schema.optionalKey(Schema.NullOr(Schema.String)),
  signup_closes_at: Schema.optionalKey(Schema.NullOr(Schema.String)),
  /** A full slot gives waitlisted places (only with a capacity; absent: false). */
  waitlist: Schema.optionalKey(Schema.Boolean)
})
export type TimeSlotRecord = typeof TimeSlotRecord.Type

/** A slot's start and end as instants (epoch ms), computed in its event's zone (shifts/slotInstants.ts). */
export const SlotInstantFields = {
  starts_at: Schema.Number,
  ends_at: Schema.Number,
  /** The sign-up window as stored (epoch ms or null; shifts/signupWindow.ts). */
  signup_opens_at: Schema.NullOr(Schema.Number),
  signup_closes_at: Schema.NullOr(Schema.Number)
}

/** The waitlist of a slot (CONTRACT §22): whether it has one, and the places waiting (expired ones not counted). */
export const SlotWaitlistFields = {
  waitlist: Schema.Boolean,
  waitlisted: Schema.Number
}

/** A slot with its places (CONTRACT §15): `holders` counts the confirmed places on it, from every form. */
export const SlotAvailability = Schema.Struct({
  ...TimeSlotRecord.fields,
  ...SlotInstantFields,
  ...SlotWaitlistFields,
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
  ...SlotInstantFields,
  ...SlotWaitlistFields,
  capacity: Schema.NullOr(Schema.Number),
  holders: Schema.Number,
  /** After a submit took its places: the place this submission got (shifts/placeArithmetic.ts). */
  place: Schema.optionalKey(Schema.Literals(["confirmed", "waitlisted", "full"]))
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

/**
 * A submission's place on a slot (CONTRACT §22): `position` is the current rank on the waitlist (from 1), null
 * otherwise; a waiting place of a slot that has started is `expired`.
 */
export const SubmissionPlace = Schema.Struct({
  slot_id: Schema.String,
  status: Schema.Literals(["confirmed", "waitlisted", "expired"]),
  position: Schema.NullOr(Schema.Number)
})
export type SubmissionPlace = typeof SubmissionPlace.Type

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
  /** The places the submission holds now, by slot id (code-unit order). */
  readonly placesOf: (submissionId: string) => Effect.Effect<ReadonlyArray<SubmissionPlace>, Unavailable>
}>()("@forms/domain/RegistrationData") {}
