/** Failures of the built-in handlers: the delivery is retried, and parked dead if they persist. */
import { Schema } from "effect"

/** A record the event names does not exist (yet): retrying may help; if not, the event ends up dead. */
export class HandlerInputMissing extends Schema.TaggedError<HandlerInputMissing>()("HandlerInputMissing", {
  message: Schema.String
}) {}
