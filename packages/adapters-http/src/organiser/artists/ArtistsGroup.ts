/**
 * The `artists` group of the organiser API: master artists, soft-deleted ones included. The group's wire shapes
 * are here, beside its endpoints, derived from the domain's records (the artist, with its profile when read alone,
 * and the body of a create).
 */
import { Schema, Struct } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "effect/http-api"
import { AdminArtist, ArtistDetail } from "@forms/domain"
import { envelopeOf, isoOrNull, listOf } from "../../http/wireShapes.js"
import { created, operationDoc, organiserErrors, organiserTag, pagingNote } from "../organiserEndpoints.js"
import { OrganiserAuth } from "../OrganiserAuth.js"

// Wire shapes

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

// Endpoints

const artistId = { artistId: Schema.String }

export class ArtistsGroup extends HttpApiGroup.make("artists")
  .add(
    HttpApiEndpoint.get("listArtists", "/admin/artists", { success: ArtistList, error: organiserErrors.listed })
      .annotateMerge(operationDoc("List master artists, newest first (soft-deleted ones too)." + pagingNote, "adminListArtists")),
    HttpApiEndpoint.post("createArtist", "/admin/artists", { payload: ArtistBody, success: created(ArtistEnvelope), error: organiserErrors.write })
      .annotateMerge(operationDoc("Create a master artist", "adminCreateArtist")),
    HttpApiEndpoint.get("getArtist", "/admin/artists/:artistId", { params: artistId, success: ArtistDetailEnvelope, error: organiserErrors.read })
      .annotateMerge(operationDoc("Get an artist with its profile (what the portal applied)", "adminGetArtist")),
    HttpApiEndpoint.delete("deleteArtist", "/admin/artists/:artistId", {
      params: artistId,
      success: HttpApiSchema.NoContent,
      error: organiserErrors.write
    }).annotateMerge(operationDoc("Soft-delete an artist: its portals answer 410 ARTIST_GONE", "adminDeleteArtist"))
  )
  .middleware(OrganiserAuth)
  .annotateMerge(organiserTag)
{}
