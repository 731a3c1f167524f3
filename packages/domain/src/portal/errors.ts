/** The errors of the artist portal (CONTRACT §5, §7); no HTTP status here. */
import { Schema } from "effect"

export class PortalNotFound extends Schema.TaggedError<PortalNotFound>()("PortalNotFound", {}) {}

export class SectionNotFound extends Schema.TaggedError<SectionNotFound>()("SectionNotFound", {}) {}

export class ArtistGone extends Schema.TaggedError<ArtistGone>()("ArtistGone", {}) {}

/** A write to a locked advance section (CONTRACT §21): nothing written. */
export class SectionLocked extends Schema.TaggedError<SectionLocked>()("SectionLocked", {}) {}
