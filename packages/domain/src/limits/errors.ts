/** The error of a client limit (no HTTP status here). */
import { Schema } from "effect"

/** Refused by a client limit (CONTRACT §8); the limiter's state travels on the `Refused` around it. */
export class RateLimited extends Schema.TaggedError<RateLimited>()("RateLimited", {}) {}
