/** The engagements' half of the in-memory OrganiserArtists: creation, lists, details and portal links. */
import { Effect, Option } from "effect"
import { ReferenceInvalid } from "../../../organiser/catalog/errors.js"
import type { AdminEngagement, EngagementDetail } from "../../../organiser/engagements/EngagementModel.js"
import type { EngagementStore } from "../../../organiser/engagements/EngagementStore.js"
import { EngagementNotFound } from "../../../organiser/engagements/errors.js"
import type { Actor } from "../../../shared/Actor.js"
import { compareStrings } from "../../../shared/compareStrings.js"
import type { CreatedKey } from "../../../shared/paging.js"
import { newestFirst, paged } from "../../paging.js"
import type { AuditAppend, OrganiserState } from "../OrganiserState.js"

export const inMemoryOrganiserEngagements = (state: OrganiserState, audit: AuditAppend, newId: () => string): EngagementStore => {
  const summary = ({ portal_token: _, ...engagement }: AdminEngagement & { portal_token: string | null }): AdminEngagement =>
    engagement
  return {
    listEngagements: (org, page) =>
      Effect.sync(() =>
        paged(
          [...state.engagements.values()].filter((e) => e.organisation_id === org).map((e) => summary(e.row)),
          (e): CreatedKey => e,
          newestFirst,
          page
        )
      ),
    findEngagement: (org, id) =>
      Effect.sync(() => {
        const found = state.engagements.get(id)
        if (found === undefined || found.organisation_id !== org) return Option.none()
        // No portal drafts in memory: nothing was applied or saved yet.
        const detail: EngagementDetail = { ...summary(found.row), advance: {}, values: {} }
        return Option.some(detail)
      }),
    createEngagement: (actor: Actor, input, at) =>
      Effect.suspend(() => {
        const event = state.events.get(input.event_id)
        if (event === undefined || event.organisation_id !== actor.organisation_id) {
          return Effect.fail(new ReferenceInvalid({ field: "event_id" }))
        }
        const artist = state.artists.get(input.master_artist_id)
        if (artist === undefined || artist.organisation_id !== actor.organisation_id || artist.row.deleted_at !== null) {
          return Effect.fail(new ReferenceInvalid({ field: "master_artist_id" }))
        }
        const sections = input.advance_sections
          .map((s) => ({ id: newId(), name: s.name, position: s.position, status: "pending" as const, submitted_at: null }))
          .sort((a, b) => a.position - b.position || compareStrings(a.id, b.id))
        const row = {
          id: newId(),
          event_id: input.event_id,
          master_artist_id: input.master_artist_id,
          advance_sections: sections,
          created_at: at,
          portal_token: null
        }
        state.engagements.set(row.id, { organisation_id: actor.organisation_id, row })
        audit(actor, at, { action: "engagement.created", resource_type: "engagement", resource_id: row.id })
        return Effect.succeed(summary(row))
      }),
    issuePortalToken: (actor, engagementId, token, at) =>
      Effect.suspend(() => {
        const found = state.engagements.get(engagementId)
        if (found === undefined || (actor !== undefined && found.organisation_id !== actor.organisation_id)) {
          return Effect.fail(new EngagementNotFound())
        }
        found.row = { ...found.row, portal_token: token }
        audit(actor ?? { organisation_id: found.organisation_id, api_key_id: null }, at, {
          action: "engagement.portal_link_created",
          resource_type: "engagement",
          resource_id: engagementId
        })
        return Effect.void
      })
  }
}
