/** The `artists` group of the organiser API: master artists, soft-deleted ones included. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "effect/http-api"
import { created, operationDoc, organiserErrors, organiserTag, pagingNote } from "../organiserEndpoints.js"
import { OrganiserAuth } from "../OrganiserAuth.js"
import { ArtistBody, ArtistDetailEnvelope, ArtistEnvelope, ArtistList } from "./wire.js"

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
