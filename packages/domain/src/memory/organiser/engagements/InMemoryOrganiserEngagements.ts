/** The engagements' half of the in-memory OrganiserArtists: creation, lists, details, changes and portal links. */
import { Effect, Option } from "effect"
import type { NewOutboxEvent } from "../../../events/Outbox.js"
import { ReferenceInvalid } from "../../../organiser/catalog/errors.js"
import type { EngagementDetailRecord, EngagementRecord } from "../../../organiser/engagements/EngagementModel.js"
import type { EngagementStore } from "../../../organiser/engagements/EngagementStore.js"
import { AdvanceSectionNotFound, EngagementNotFound } from "../../../organiser/engagements/errors.js"
import { applySchedule } from "../../../portal/SectionLock.js"
import type { Actor } from "../../../shared/Actor.js"
import { compareStrings } from "../../../shared/compareStrings.js"
import type { CreatedKey } from "../../../shared/paging.js"
import { newOutboxRow } from "../../InMemoryStore.js"
import { newestFirst, paged } from "../../paging.js"
import type { AuditAppend, OrganiserState } from "../OrganiserState.js"

export const inMemoryOrganiserEngagements = (state: OrganiserState, audit: AuditAppend, newId: () => string): EngagementStore => {
  const summary = ({ portal_token: _, ...engagement }: EngagementRecord & { portal_token: string | null }): EngagementRecord =>
    engagement
  const ownEngagement = (org: string, id: string) => {
    const found = state.engagements.get(id)
    return found === undefined || found.organisation_id !== org ? undefined : found
  }
  const record = (events: ReadonlyArray<NewOutboxEvent>, at: number) => {
    for (const event of events) state.outbox.push(newOutboxRow(newId(), event, at))
  }
  return {
    listEngagements: (org, page, filter) =>
      Effect.sync(() =>
        paged(
          [...state.engagements.values()]
            .filter((e) => e.organisation_id === org)
            .filter((e) =>
              filter.overdue_at === undefined ||
              e.row.advance_sections.some((s) =>
                s.status === "pending" && s.due_at !== null && s.due_at < (filter.overdue_at ?? 0)
              )
            )
            .map((e) => summary(e.row)),
          (e): CreatedKey => e,
          newestFirst,
          page
        )
      ),
    findEngagement: (org, id) =>
      Effect.sync(() => {
        const found = ownEngagement(org, id)
        if (found === undefined) return Option.none()
        // No portal drafts in memory: nothing was applied or saved yet.
        const detail: EngagementDetailRecord = { ...summary(found.row), advance: {}, values: {} }
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
          .map((s) => ({ id: newId(), status: "pending" as const, submitted_at: null, ...s }))
          .sort((a, b) => a.position - b.position || compareStrings(a.id, b.id))
        const row = {
          id: newId(),
          event_id: input.event_id,
          master_artist_id: input.master_artist_id,
          contact_email: input.contact_email,
          advance_sections: sections,
          created_at: at,
          portal_token: null
        }
        state.engagements.set(row.id, { organisation_id: actor.organisation_id, row })
        audit(actor, at, { action: "engagement.created", resource_type: "engagement", resource_id: row.id })
        return Effect.succeed(summary(row))
      }),
    updateEngagement: (actor, id, patch, at) =>
      Effect.suspend(() => {
        const found = ownEngagement(actor.organisation_id, id)
        if (found === undefined) return Effect.fail(new EngagementNotFound())
        if (patch.contact_email !== undefined) found.row = { ...found.row, contact_email: patch.contact_email }
        audit(actor, at, { action: "engagement.updated", resource_type: "engagement", resource_id: id })
        return Effect.succeed(summary(found.row))
      }),
    updateAdvanceSection: (actor, engagementId, sectionId, patch, at, events) =>
      Effect.suspend((): Effect.Effect<EngagementRecord, EngagementNotFound | AdvanceSectionNotFound> => {
        const found = ownEngagement(actor.organisation_id, engagementId)
        if (found === undefined) return Effect.fail(new EngagementNotFound())
        const before = found.row.advance_sections.find((s) => s.id === sectionId)
        if (before === undefined) return Effect.fail(new AdvanceSectionNotFound())
        const after = { ...before, ...applySchedule(before, patch) }
        found.row = { ...found.row, advance_sections: found.row.advance_sections.map((s) => (s.id === sectionId ? after : s)) }
        audit(actor, at, { action: "engagement_section.updated", resource_type: "engagement", resource_id: engagementId })
        record(events(before, after), at)
        return Effect.succeed(summary(found.row))
      }),
    issuePortalToken: (actor, engagementId, token, at, messages = []) =>
      Effect.suspend(() => {
        const found = state.engagements.get(engagementId)
        if (found === undefined || (actor !== undefined && found.organisation_id !== actor.organisation_id)) {
          return Effect.fail(new EngagementNotFound())
        }
        found.row = { ...found.row, portal_token: token }
        for (const message of messages) {
          state.messages.push({
            message: {
              ...message,
              id: newId(),
              organisation_id: found.organisation_id,
              submission_id: null,
              engagement_id: engagementId,
              attempts: 0,
              last_error: null,
              created_at: at,
              round_start: at,
              sent_at: null
            },
            due_at: at
          })
        }
        audit(actor ?? { organisation_id: found.organisation_id, api_key_id: null }, at, {
          action: "engagement.portal_link_created",
          resource_type: "engagement",
          resource_id: engagementId
        })
        return Effect.void
      })
  }
}
