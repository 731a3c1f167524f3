/** The artist portal use cases (CONTRACT §5): engagement summary, a section with its draft values, a section submit. */
import { Context, type Effect, Schema, Struct } from "effect"
import type { AnswerLanguage } from "../languages/AnswerLanguage.js"
import { Translations } from "../languages/Translations.js"
import { FormField } from "../forms/FormField.js"
import { EventRef } from "../forms/FormSchema.js"
import { Values } from "../forms/Values.js"
import type { RateLimited } from "../limits/errors.js"
import type { Limited, Refused } from "../limits/Limited.js"
import type { Client } from "../limits/LimitPolicy.js"
import type { ValidationFailed } from "../rules/errors.js"
import type { Unavailable } from "../shared/errors.js"
import { AdvanceSection, AdvanceSectionStatus } from "./Engagement.js"
import type { ArtistGone, PortalNotFound, SectionLocked, SectionNotFound } from "./errors.js"

export const PortalSummarySection = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  status: AdvanceSectionStatus,
  /** Epoch ms (the HTTP adapter writes ISO 8601), or null. */
  submitted_at: Schema.NullOr(Schema.Number),
  /** Maps to a section of the organisation's `artist_advance` schema. */
  available: Schema.Boolean,
  /** Locked now (CONTRACT §21): by hand, or by `locks_at` having passed while `locked` is null. */
  locked: Schema.Boolean,
  /** Epoch ms, or null. */
  due_at: Schema.NullOr(Schema.Number),
  /** Epoch ms, or null. */
  locks_at: Schema.NullOr(Schema.Number),
  /** Pending with `due_at` passed. */
  overdue: Schema.Boolean
})
export type PortalSummarySection = typeof PortalSummarySection.Type

export const PortalSummary = Schema.Struct({
  engagement: Schema.Struct({ id: Schema.String, event: EventRef }),
  artist: Schema.Struct({ id: Schema.String, name: Schema.String }),
  /** The advance form's languages (CONTRACT §19), when it names them: they choose the answer's. */
  languages: Schema.optionalKey(Schema.Array(Schema.String)),
  /** Ordered by position, then id. */
  sections: Schema.Array(PortalSummarySection)
})
export type PortalSummary = typeof PortalSummary.Type

export const PortalSectionView = Schema.Struct({
  section: AdvanceSection.mapFields(Struct.pick(["id", "name", "status", "submitted_at"])),
  /** The form section's fields, ordered by position then slug (with internal `maps_to` and option tags: the wire drops them). */
  fields: Schema.Array(FormField),
  /** The advance draft's values for these fields only (empty map when none). */
  values: Values,
  /** The advance form's languages and translations (CONTRACT §19), when it names them. */
  languages: Schema.optionalKey(Schema.Array(Schema.String)),
  translations: Schema.optionalKey(Translations)
})
export type PortalSectionView = typeof PortalSectionView.Type

/** Token (404), artist (410), the portal limit (429) and the database: what every portal route may answer. */
export type PortalAccessError = PortalNotFound | ArtistGone | Refused<RateLimited> | Unavailable

export class ArtistPortal extends Context.Service<ArtistPortal, {
  /**
   * The portal page (GET /portal/{token}, CONTRACT §14): token (404) → artist (410), counting no limit, since the
   * page is not one of the routes the portal limit counts (§8; the element's own requests are).
   */
  readonly page: (token: string) => Effect.Effect<PortalSummary, PortalNotFound | ArtistGone | Unavailable>
  /** GET /p/artist/{token}: token (404) → artist (410) → rate limit (429). Answers are `Limited`. */
  readonly summary: (token: string, client: Client, language?: AnswerLanguage) => Effect.Effect<Limited<PortalSummary>, PortalAccessError>
  /** GET /p/artist/{token}/sections/{section_id}: … → section (404, `Refused`: after the limit). */
  readonly section: (
    token: string,
    sectionId: string,
    client: Client,
    language?: AnswerLanguage
  ) => Effect.Effect<Limited<PortalSectionView>, PortalAccessError | Refused<SectionNotFound>>
  /**
   * POST /p/artist/{token}/sections/{section_id}: … → section (404) → lock (409, CONTRACT §21) → strict
   * validation of the section's fields over the merged values (422, nothing written) → the atomic submit, which
   * checks the lock again in its own write. `values` is the body's map (absent: `{}`), already past the size limits.
   */
  readonly submitSection: (
    token: string,
    sectionId: string,
    values: Values,
    client: Client,
    language?: AnswerLanguage
  ) => Effect.Effect<
    Limited<PortalSectionView>,
    PortalAccessError | Refused<SectionNotFound | SectionLocked | ValidationFailed>
  >
  /**
   * PUT /p/artist/{token}/sections/{section_id} (CONTRACT §21, section drafts): … → section (404) → lock (409) →
   * relaxed validation of the body's values of the section's fields (422, nothing written) → the atomic save,
   * which checks the lock again. Answers the GET's shape; the section stays as it was (pending or submitted).
   */
  readonly saveSection: (
    token: string,
    sectionId: string,
    values: Values,
    client: Client,
    language?: AnswerLanguage
  ) => Effect.Effect<
    Limited<PortalSectionView>,
    PortalAccessError | Refused<SectionNotFound | SectionLocked | ValidationFailed>
  >
}>()("@forms/domain/ArtistPortal") {}
