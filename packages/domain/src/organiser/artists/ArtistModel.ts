/** Master artists as the organiser sees them (CONTRACT §12). */
import { Schema } from "effect"
import type { CreatedKey } from "../../shared/paging.js"

export const AdminArtist = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  /** Epoch ms of the soft delete, or null. */
  deleted_at: Schema.NullOr(Schema.Number),
  created_at: Schema.Number
})
export type AdminArtist = typeof AdminArtist.Type

/** An artist with what §5 applied to it from the portal. */
export const ArtistDetail = Schema.Struct({
  ...AdminArtist.fields,
  profile: Schema.Record(Schema.String, Schema.Unknown)
})
export type ArtistDetail = typeof ArtistDetail.Type

export const artistKeyOf = (artist: AdminArtist): CreatedKey => ({ created_at: artist.created_at, id: artist.id })
