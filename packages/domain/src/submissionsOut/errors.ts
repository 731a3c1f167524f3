/** Errors of "Submissions out" (CONTRACT §7, §12); no HTTP status here. Forms and submissions reuse FormNotFound and SubmissionNotFound. */
import { Schema } from "effect"

/** Unknown contact id, or one of another organisation. */
export class ContactNotFound extends Schema.TaggedError<ContactNotFound>()("ContactNotFound", {}) {}

/** Unknown outbox event id, or one of another organisation. */
export class OutboxEventNotFound extends Schema.TaggedError<OutboxEventNotFound>()("OutboxEventNotFound", {}) {}

/** A retry of an outbox event that is not dead (nothing was written). */
export class EventNotDead extends Schema.TaggedError<EventNotDead>()("EventNotDead", {}) {}
