/** Port: the event tree of a form's event, with its time slots and registration sections. */
import { Context, type Effect } from "effect"
import type { Unavailable } from "../Errors.js"

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
  readonly timeSlots: (eventIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<TimeSlotRecord>, Unavailable>
  readonly sections: (
    eventIds: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyArray<EventSectionRecord>, Unavailable>
}>()("@forms/domain/RegistrationData") {}
