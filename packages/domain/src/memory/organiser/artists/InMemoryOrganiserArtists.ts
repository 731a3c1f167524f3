/** The artists' half of the in-memory OrganiserArtists: master artists, soft deletes, each write with its audit entry. */
import { Effect, Option } from "effect"
import type { AdminArtist, ArtistDetail, ArtistStore } from "../../../organiser/artists/Artists.js"
import { ArtistNotFound } from "../../../organiser/artists/errors.js"
import type { CreatedKey } from "../../../shared/paging.js"
import { newestFirst, paged } from "../../paging.js"
import { type AuditAppend, type OrganiserState, own } from "../OrganiserState.js"

export const inMemoryOrganiserArtists = (state: OrganiserState, audit: AuditAppend, newId: () => string): ArtistStore => {
  const summary = ({ profile: _, ...artist }: ArtistDetail): AdminArtist => artist
  return {
    listArtists: (org, page) =>
      Effect.sync(() => paged([...state.artists.values()].filter((a) => a.organisation_id === org).map((a) => summary(a.row)), (a): CreatedKey => a, newestFirst, page)),
    findArtist: (org, id) => Effect.sync(() => Option.fromUndefinedOr(own(state.artists, org, id))),
    createArtist: (actor, name, at) =>
      Effect.sync(() => {
        const row: ArtistDetail = { id: newId(), name, deleted_at: null, created_at: at, profile: {} }
        state.artists.set(row.id, { organisation_id: actor.organisation_id, row })
        audit(actor, at, { action: "artist.created", resource_type: "artist", resource_id: row.id })
        return summary(row)
      }),
    deleteArtist: (actor, id, at) =>
      Effect.suspend(() => {
        const stored = state.artists.get(id)
        if (stored === undefined || stored.organisation_id !== actor.organisation_id) return Effect.fail(new ArtistNotFound())
        if (stored.row.deleted_at === null) {
          stored.row = { ...stored.row, deleted_at: at }
          audit(actor, at, { action: "artist.deleted", resource_type: "artist", resource_id: id })
        }
        return Effect.void
      })
  }
}
