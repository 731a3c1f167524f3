/** Master artists on the organiser's wire: the artist, with its profile when read alone, and the body of a create. */
import { Schema } from "effect"
import type { AdminArtist, ArtistDetail } from "@forms/domain"
import { envelopeOf, isoOrNull, listOf } from "../../http/wireShapes.js"

export const ArtistWire = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  deleted_at: Schema.NullOr(Schema.String)
}).annotate({ identifier: "AdminArtist" })
export const ArtistEnvelope = envelopeOf(ArtistWire, "AdminArtistEnvelope")
export const ArtistList = listOf(ArtistWire, "AdminArtistList")
export const toArtistWire = (a: AdminArtist): typeof ArtistWire.Type => ({
  id: a.id,
  name: a.name,
  deleted_at: isoOrNull(a.deleted_at)
})
/** The artist with `profile`: what the portal's answers applied to it. */
export const ArtistDetailWire = Schema.Struct({
  ...ArtistWire.fields,
  profile: Schema.Record(Schema.String, Schema.Unknown)
}).annotate({ identifier: "AdminArtistDetail" })
export const ArtistDetailEnvelope = envelopeOf(ArtistDetailWire, "AdminArtistDetailEnvelope")
export const toArtistDetailWire = (a: ArtistDetail): typeof ArtistDetailWire.Type => ({ ...toArtistWire(a), profile: a.profile })
export const ArtistBody = Schema.Struct({ name: Schema.String }).annotate({ identifier: "AdminArtistBody" })
