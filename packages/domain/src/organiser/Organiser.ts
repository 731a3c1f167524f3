/**
 * The organiser use cases (CONTRACT §12) after authentication, the request shape and the `admin` limit, as one
 * service: the catalog's, the artists' and the engagements' use cases (each defined in its feature folder) over
 * the OrganiserAccess, OrganiserCatalog and OrganiserArtists ports.
 */
import { Context, Effect, Layer } from "effect"
import { type ArtistUseCases, makeArtistUseCases } from "./artists/Artists.js"
import { type CatalogUseCases, makeCatalogUseCases } from "./catalog/CatalogUseCases.js"
import { OrganiserAccess } from "./catalog/OrganiserAccess.js"
import { OrganiserCatalog } from "./catalog/OrganiserCatalog.js"
import { type EngagementUseCases, makeEngagementUseCases } from "./engagements/EngagementUseCases.js"
import { OrganiserArtists } from "./OrganiserArtists.js"

export class Organiser extends Context.Service<Organiser, CatalogUseCases & ArtistUseCases & EngagementUseCases>()(
  "@forms/domain/Organiser"
) {}

export const makeOrganiser = Effect.gen(function*() {
  const access = yield* OrganiserAccess
  const catalog = yield* OrganiserCatalog
  const artists = yield* OrganiserArtists
  return Organiser.of({
    ...makeCatalogUseCases(access, catalog),
    ...makeArtistUseCases(artists),
    ...makeEngagementUseCases(catalog, artists)
  })
})

/** The organiser use cases; needs OrganiserAccess, OrganiserCatalog and OrganiserArtists. */
export const OrganiserLive = { layer: Layer.effect(Organiser, makeOrganiser) } as const
