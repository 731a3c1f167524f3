/**
 * Port: an organisation's master artists and their engagements (CONTRACT §12). One port for both, because a new
 * engagement must hold its artist against a concurrent soft delete in one atomic step; its halves are defined
 * by their features (`artists/Artists.ts`, `engagements/EngagementStore.ts`).
 */
import { Context } from "effect"
import type { ArtistStore } from "./artists/Artists.js"
import type { EngagementStore } from "./engagements/EngagementStore.js"

export class OrganiserArtists extends Context.Service<OrganiserArtists, ArtistStore & EngagementStore>()(
  "@forms/domain/OrganiserArtists"
) {}
