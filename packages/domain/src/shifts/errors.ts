/** The errors of volunteer shifts' self-service and desk (CONTRACT §22); no HTTP status here. */
import { Schema } from "effect"

/** No submission has this manage token (never issued, or replaced by a newer link, or erased). */
export class ManageNotFound extends Schema.TaggedError<ManageNotFound>()("ManageNotFound", {}) {}

/** The submission holds no place in this slot (or no confirmed one, where a confirmed one is needed). */
export class PlaceNotFound extends Schema.TaggedError<PlaceNotFound>()("PlaceNotFound", {}) {}

/** The place can no longer be given up: past `cancel_until_hours` before the slot's start, or the slot has started. */
export class CancelClosed extends Schema.TaggedError<CancelClosed>()("CancelClosed", {}) {}
