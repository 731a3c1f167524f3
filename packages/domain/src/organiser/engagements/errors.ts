/** The errors of engagements (CONTRACT §7, §12); no HTTP status here. */
import { Schema } from "effect"

/** Unknown id, or an id of another organisation: the same answer. */
export class EngagementNotFound extends Schema.TaggedError<EngagementNotFound>()("EngagementNotFound", {}) {}

/** An advance section id that is not one of the engagement's (CONTRACT §21): the engagement is found first. */
export class AdvanceSectionNotFound extends Schema.TaggedError<AdvanceSectionNotFound>()("AdvanceSectionNotFound", {}) {}
