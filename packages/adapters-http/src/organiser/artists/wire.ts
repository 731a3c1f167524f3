/** Master artists on the organiser's wire: the artist, with its profile when read alone, and the body of a create. */
import { Schema, Struct } from "effect"
import { AdminArtist, ArtistDetail } from "@forms/domain"
import { envelopeOf, isoOrNull, listOf } from "../../http/wireShapes.js"

/** The domain's artist without `created_at`, `deleted_at` in ISO 8601. */
export const ArtistWire = AdminArtist.mapFields(Struct.omit(["created_at"]))
  .mapFields((f) => ({ ...f, deleted_at: Schema.NullOr(Schema.String) }))
  .annotate({ identifier: "AdminArtist" })
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
  profile: ArtistDetail.fields.profile
}).annotate({ identifier: "AdminArtistDetail" })
export const ArtistDetailEnvelope = envelopeOf(ArtistDetailWire, "AdminArtistDetailEnvelope")
export const toArtistDetailWire = (a: ArtistDetail): typeof ArtistDetailWire.Type => ({ ...toArtistWire(a), profile: a.profile })
export const ArtistBody = Schema.Struct({ name: Schema.String }).annotate({ identifier: "AdminArtistBody" })
