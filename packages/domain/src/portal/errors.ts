/** The errors of the artist portal (CONTRACT §5, §7); no HTTP status here. */
import { Schema } from "effect"

export class PortalNotFound extends Schema.TaggedError<PortalNotFound>()("PortalNotFound", {}) {}

export class SectionNotFound extends Schema.TaggedError<SectionNotFound>()("SectionNotFound", {}) {}

export class ArtistGone extends Schema.TaggedError<ArtistGone>()("ArtistGone", {}) {}
