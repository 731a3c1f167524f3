/**
 * The engagements' use cases of the `Organiser` service (CONTRACT §12): engagements and their portal links, over
 * the engagements' half of OrganiserArtists, with the references checked against the catalog and the artists.
 */
import { Clock, Effect, Option } from "effect"
import { type Body, checked } from "../../rules/bodyChecks.js"
import { ValidationFailed } from "../../rules/errors.js"
import type { FieldError } from "../../rules/FieldErrors.js"
import type { Actor } from "../../shared/Actor.js"
import type { Unavailable } from "../../shared/errors.js"
import type { CreatedKey, Page, PageRequest } from "../../shared/paging.js"
import type { ArtistStore } from "../artists/ArtistStore.js"
import type { OrganiserCatalog } from "../catalog/OrganiserCatalog.js"
import { inReference, referenceProblem } from "../catalog/references.js"
import { engagementInput } from "./engagementInput.js"
import type { AdminEngagement, EngagementDetail } from "./EngagementModel.js"
import type { EngagementStore } from "./EngagementStore.js"
import { EngagementNotFound } from "./errors.js"

type E<A, X = never> = Effect.Effect<A, X | Unavailable>

export interface EngagementUseCases {
  readonly listEngagements: (actor: Actor, page: PageRequest<CreatedKey>) => E<Page<AdminEngagement>>
  /** 422 `in` on `event_id` / `master_artist_id` for an unknown, foreign or (artist) soft-deleted one. */
  readonly createEngagement: (actor: Actor, body: Body) => E<AdminEngagement, ValidationFailed>
  readonly getEngagement: (actor: Actor, id: string) => E<EngagementDetail, EngagementNotFound>
  /**
   * A new portal link: `token` (32 random bytes from the caller: the domain has no randomness) becomes
   * the engagement's portal token; the old one stops working. The one path of the HTTP route and the
   * CLI's `portal-link` (actor undefined: unscoped).
   */
  readonly issuePortalLink: (actor: Actor | undefined, engagementId: string, token: string) => E<void, EngagementNotFound>
}

export const makeEngagementUseCases = (
  catalog: Pick<typeof OrganiserCatalog.Service, "findEvent">,
  artists: Pick<ArtistStore, "findArtist"> & EngagementStore
): EngagementUseCases => ({
  listEngagements: Effect.fn("Organiser.listEngagements")(function*(actor: Actor, page: PageRequest<CreatedKey>) {
    return yield* artists.listEngagements(actor.organisation_id, page)
  }),
  createEngagement: Effect.fn("Organiser.createEngagement")(function*(actor: Actor, body: Body) {
    const input = yield* checked(engagementInput(body))
    // Both references at once (every problem in one answer); the port checks them again under lock.
    const event = yield* catalog.findEvent(actor.organisation_id, input.event_id)
    const artist = yield* artists.findArtist(actor.organisation_id, input.master_artist_id)
    const bad: Record<string, ReadonlyArray<FieldError>> = {}
    if (Option.isNone(event)) bad["event_id"] = [inReference]
    if (Option.isNone(artist) || artist.value.deleted_at !== null) bad["master_artist_id"] = [inReference]
    if (Object.keys(bad).length > 0) return yield* new ValidationFailed({ fields: bad })
    return yield* artists.createEngagement(actor, input, yield* Clock.currentTimeMillis).pipe(
      Effect.catchTag("ReferenceInvalid", (e) => Effect.fail(referenceProblem(e)))
    )
  }),
  getEngagement: Effect.fn("Organiser.getEngagement")(function*(actor: Actor, id: string) {
    return yield* artists.findEngagement(actor.organisation_id, id).pipe(
      Effect.flatMap(Effect.fromOption(() => new EngagementNotFound()))
    )
  }),
  issuePortalLink: Effect.fn("Organiser.issuePortalLink")(function*(actor: Actor | undefined, engagementId: string, token: string) {
    return yield* artists.issuePortalToken(actor, engagementId, token, yield* Clock.currentTimeMillis)
  })
})
