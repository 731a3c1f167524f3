/**
 * The engagements' use cases of the `Organiser` service (CONTRACT §12, §21): engagements, their contacts, the
 * deadlines and locks of their advance sections and their portal links, over the engagements' half of
 * OrganiserArtists, with the references checked against the catalog and the artists.
 */
import { Clock, Effect, Option } from "effect"
import { type Body, checked } from "../../rules/bodyChecks.js"
import { ValidationFailed } from "../../rules/errors.js"
import type { FieldError } from "../../rules/FieldErrors.js"
import { lockTransition } from "../../portal/SectionLock.js"
import { MessagesConfig } from "../../messages/MessagesConfig.js"
import type { NewMessage } from "../../messages/Message.js"
import { composePortalLink } from "../../reminders/composeReminders.js"
import { portalLinkInput } from "../../reminders/portalLinkInput.js"
import type { Actor } from "../../shared/Actor.js"
import type { Unavailable } from "../../shared/errors.js"
import type { CreatedKey, Page, PageRequest } from "../../shared/paging.js"
import type { ArtistStore } from "../artists/Artists.js"
import type { OrganiserCatalog } from "../catalog/OrganiserCatalog.js"
import { inReference, referenceProblem } from "../catalog/references.js"
import { engagementInput, engagementPatch, sectionPatch } from "./engagementInput.js"
import { type AdminEngagement, type EngagementDetail, engagementAt } from "./EngagementModel.js"
import type { EngagementStore } from "./EngagementStore.js"
import { AdvanceSectionNotFound, EngagementNotFound } from "./errors.js"

type E<A, X = never> = Effect.Effect<A, X | Unavailable>

/** How the engagements are listed: `overdue` keeps those with a section overdue now. */
export interface EngagementListing {
  readonly overdue: boolean
}

export interface EngagementUseCases {
  readonly listEngagements: (actor: Actor, page: PageRequest<CreatedKey>, listing?: EngagementListing) => E<Page<AdminEngagement>>
  /** 422 `in` on `event_id` / `master_artist_id` for an unknown, foreign or (artist) soft-deleted one. */
  readonly createEngagement: (actor: Actor, body: Body) => E<AdminEngagement, ValidationFailed>
  readonly getEngagement: (actor: Actor, id: string) => E<EngagementDetail, EngagementNotFound>
  /** `{ contact_email? }` (422 `email` for an address the `email` rule refuses); audited `engagement.updated`. */
  readonly updateEngagement: (actor: Actor, id: string, body: Body) => E<AdminEngagement, EngagementNotFound | ValidationFailed>
  /**
   * `{ due_at?, locks_at?, locked? }` of one advance section (404 engagement, then section; then 422); audited
   * `engagement_section.updated`, and `section.locked` / `section.reopened` recorded when the change moves the
   * section's state now (`locks_at` reached by time records none).
   */
  readonly updateAdvanceSection: (
    actor: Actor,
    engagementId: string,
    sectionId: string,
    body: Body
  ) => E<AdminEngagement, EngagementNotFound | AdvanceSectionNotFound | ValidationFailed>
  /**
   * A new portal link: `token` (32 random bytes from the caller: the domain has no randomness) becomes
   * the engagement's portal token; the old one stops working. The one path of the HTTP route and the
   * CLI's `portal-link` (actor undefined: unscoped). With `delivery` (the route's body and the page's URL):
   * `{ send_to? }` checked after the engagement (422 `email` on `send_to`), and a `portal_link` message to that
   * address recorded with the new token.
   */
  readonly issuePortalLink: (
    actor: Actor | undefined,
    engagementId: string,
    token: string,
    delivery?: PortalLinkDelivery
  ) => E<void, EngagementNotFound | ValidationFailed>
}

/** What the portal-link route gives beside the token: its body and the URL of the portal page the token opens. */
export interface PortalLinkDelivery {
  readonly body: Body
  readonly pageUrl: string
}

export const makeEngagementUseCases = (
  catalog: Pick<typeof OrganiserCatalog.Service, "findEvent">,
  artists: Pick<ArtistStore, "findArtist"> & EngagementStore
): EngagementUseCases => {
  /** The engagement found (404 first), then the body checked (422). */
  const found = (actor: Actor, id: string) =>
    artists.findEngagement(actor.organisation_id, id).pipe(Effect.flatMap(Effect.fromOption(() => new EngagementNotFound())))

  return {
    listEngagements: Effect.fn("Organiser.listEngagements")(
      function*(actor: Actor, page: PageRequest<CreatedKey>, listing?: EngagementListing) {
        const now = yield* Clock.currentTimeMillis
        const filter = listing?.overdue === true ? { overdue_at: now } : {}
        const result = yield* artists.listEngagements(actor.organisation_id, page, filter)
        return { ...result, items: result.items.map((e) => engagementAt(e, now)) }
      }
    ),
    createEngagement: Effect.fn("Organiser.createEngagement")(function*(actor: Actor, body: Body) {
      const input = yield* checked(engagementInput(body))
      // Both references at once (every problem in one answer); the port checks them again under lock.
      const event = yield* catalog.findEvent(actor.organisation_id, input.event_id)
      const artist = yield* artists.findArtist(actor.organisation_id, input.master_artist_id)
      const bad: Record<string, ReadonlyArray<FieldError>> = {}
      if (Option.isNone(event)) bad["event_id"] = [inReference]
      if (Option.isNone(artist) || artist.value.deleted_at !== null) bad["master_artist_id"] = [inReference]
      if (Object.keys(bad).length > 0) return yield* new ValidationFailed({ fields: bad })
      const now = yield* Clock.currentTimeMillis
      const created = yield* artists.createEngagement(actor, input, now).pipe(
        Effect.catchTag("ReferenceInvalid", (e) => Effect.fail(referenceProblem(e)))
      )
      return engagementAt(created, now)
    }),
    getEngagement: Effect.fn("Organiser.getEngagement")(function*(actor: Actor, id: string) {
      const detail = yield* found(actor, id)
      return engagementAt(detail, yield* Clock.currentTimeMillis)
    }),
    updateEngagement: Effect.fn("Organiser.updateEngagement")(function*(actor: Actor, id: string, body: Body) {
      yield* found(actor, id)
      const patch = yield* checked(engagementPatch(body))
      const now = yield* Clock.currentTimeMillis
      return engagementAt(yield* artists.updateEngagement(actor, id, patch, now), now)
    }),
    updateAdvanceSection: Effect.fn("Organiser.updateAdvanceSection")(
      function*(actor: Actor, engagementId: string, sectionId: string, body: Body) {
        const engagement = yield* found(actor, engagementId)
        if (!engagement.advance_sections.some((s) => s.id === sectionId)) return yield* new AdvanceSectionNotFound()
        const patch = yield* checked(sectionPatch(body))
        const now = yield* Clock.currentTimeMillis
        const ids = { engagement_id: engagementId, section_id: sectionId }
        const updated = yield* artists.updateAdvanceSection(actor, engagementId, sectionId, patch, now, (before, after) => {
          const event = lockTransition(ids, before, after, now)
          return event === null ? [] : [event]
        })
        return engagementAt(updated, now)
      }
    ),
    issuePortalLink: Effect.fn("Organiser.issuePortalLink")(
      function*(actor: Actor | undefined, engagementId: string, token: string, delivery?: PortalLinkDelivery) {
        const messages: Array<NewMessage> = []
        if (delivery !== undefined) {
          if (actor !== undefined) yield* found(actor, engagementId)
          const input = yield* checked(portalLinkInput(delivery.body))
          const { sending } = yield* MessagesConfig
          if (input.send_to !== null) messages.push(composePortalLink(input.send_to, delivery.pageUrl, sending))
        }
        return yield* artists.issuePortalToken(actor, engagementId, token, yield* Clock.currentTimeMillis, messages)
      }
    )
  }
}
