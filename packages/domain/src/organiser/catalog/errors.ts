/**
 * The catalog's errors (CONTRACT §7, §12), and the two every organiser feature answers too (`InUse`,
 * `ReferenceInvalid`); no HTTP status here.
 */
import { Schema } from "effect"

/** No valid, unrevoked API key. */
export class Unauthenticated extends Schema.TaggedError<Unauthenticated>()("Unauthenticated", {}) {}

/** Unknown id, or an id of another organisation: the same answer. */
export class EventNotFound extends Schema.TaggedError<EventNotFound>()("EventNotFound", {}) {}
export class TimeSlotNotFound extends Schema.TaggedError<TimeSlotNotFound>()("TimeSlotNotFound", {}) {}
export class EventSectionNotFound extends Schema.TaggedError<EventSectionNotFound>()("EventSectionNotFound", {}) {}

/** A delete of something still referenced (nothing was written). */
export class InUse extends Schema.TaggedError<InUse>()("InUse", {}) {}

/**
 * Port-level: a member names something that is not a valid target (e.g. `parent_event_id` not a
 * top-level event of the organisation); the use case answers a 422 `in` on `field`.
 */
export class ReferenceInvalid extends Schema.TaggedError<ReferenceInvalid>()("ReferenceInvalid", {
  field: Schema.String
}) {}

/**
 * Port-level: a write would leave a slot whose end is not after its start in its zone (only inside a clock change,
 * CONTRACT §22); the use case answers a 422 `invalid` on `field` (`end_time` for a slot, `timezone` or
 * `parent_event_id` for an event whose zone changes).
 */
export class SlotTimesInvalid extends Schema.TaggedError<SlotTimesInvalid>()("SlotTimesInvalid", {
  field: Schema.String
}) {}
