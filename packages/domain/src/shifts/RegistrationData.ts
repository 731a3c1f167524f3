/** Port: the event tree of a form's event, with its time slots and registration sections. */
import { Context, type Effect } from "effect"
import type { Unavailable } from "../shared/errors.js"

export interface EventRecord {
  readonly id: string
  readonly name: string
  readonly parent_event_id: string | null
}

export interface TimeSlotRecord {
  readonly id: string
  readonly event_id: string
  readonly name: string
  /** YYYY-MM-DD */
  readonly date: string
  /** HH:MM */
  readonly start_time: string
  readonly end_time: string
  /** A positive integer; null or absent: unlimited (CONTRACT §15). */
  readonly capacity?: number | null | undefined
}

/** A slot with its places (CONTRACT §15): `holders` counts the submitted submissions that hold it, from every form. */
export interface SlotAvailability extends TimeSlotRecord {
  readonly capacity: number | null
  readonly holders: number
}

/** A chosen slot as the `time_slots` rules need it (registration/slotChoices.ts). */
export interface ChosenSlot {
  readonly id: string
  readonly event_id: string
  /** The parent of the slot's event: a form of that parent (a festival) lists the slot too. */
  readonly parent_event_id: string | null
  readonly date: string
  readonly start_time: string
  readonly end_time: string
  readonly capacity: number | null
  readonly holders: number
}

export interface EventSectionRecord {
  readonly id: string
  readonly event_id: string
  readonly name: string
  readonly type: string
  readonly show_in_registration: boolean
  readonly position: number
}

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
