/** The errors of master artists (CONTRACT §7, §12); no HTTP status here. */
import { Schema } from "effect"

/** Unknown id, or an id of another organisation: the same answer. */
export class ArtistNotFound extends Schema.TaggedError<ArtistNotFound>()("ArtistNotFound", {}) {}
