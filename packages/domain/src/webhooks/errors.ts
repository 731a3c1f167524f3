/** The webhook side's domain errors (CONTRACT §7, §13); no HTTP status here. */
import { Schema } from "effect"

/** Unknown endpoint id, or one of another organisation: the same answer. */
export class WebhookNotFound extends Schema.TaggedError<WebhookNotFound>()("WebhookNotFound", {}) {}
export class DeliveryNotFound extends Schema.TaggedError<DeliveryNotFound>()("DeliveryNotFound", {}) {}
