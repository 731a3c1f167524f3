/** The errors of messages (no HTTP status here). */
import { Schema } from "effect"

/** No message of the actor's organisation has this id (another organisation's: the same answer). */
export class MessageNotFound extends Schema.TaggedError<MessageNotFound>()("MessageNotFound", {}) {}

/** A retry of a message that is neither `failed` nor `held`. */
export class MessageNotRetryable extends Schema.TaggedError<MessageNotRetryable>()("MessageNotRetryable", {}) {}
