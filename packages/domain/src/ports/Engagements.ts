/** Port: the artist portal's engagements, read by token or id, and the atomic section submit. */
import { Context, type Effect, type Option } from "effect"
import type { SectionNotFound, Unavailable } from "../Errors.js"
import type { AdvanceSection, PortalContext } from "../portal/Engagement.js"
import type { Submission } from "../submissions/Submission.js"
import type { Values } from "../Values.js"

export interface SubmitSectionCommand {
  readonly engagement_id: string
  /** The engagement's advance section being submitted. */
  readonly section_id: string
  /** The organisation's `artist_advance` schema: the draft belongs to it. */
  readonly schema_id: string
  /** The schema section the advance section maps to (goes into the event payload). */
  readonly form_section_id: string
  /** The draft's subject when it is created: the engagement's master artist. */
  readonly subject_id: string
  /** The draft's event when it is created: the engagement's event. */
  readonly event_id: string
  /** The section's values after the merge and strict validation: only slugs of the section's fields. */
  readonly values: Values
  /** Epoch ms from Effect's Clock: the section's `submitted_at` and the draft's `updated_at`. */
  readonly submitted_at: number
}

export interface SubmitSectionResult {
  /** The advance draft after the merge (still a draft). */
  readonly submission: Submission
  /** The advance section after the submit (`submitted`, `submitted_at` moved). */
  readonly section: AdvanceSection
}

export class Engagements extends Context.Service<Engagements, {
  /**
   * The engagement whose portal token is `token`. The adapter stores only the SHA-256 hash of a
   * token and looks the hash up; the domain passes the token as received and never sees a hash.
   */
  readonly findByToken: (token: string) => Effect.Effect<Option.Option<PortalContext>, Unavailable>
  /** The same context by engagement id (for the event handlers). */
  readonly findById: (engagementId: string) => Effect.Effect<Option.Option<PortalContext>, Unavailable>
  /** The draft of `schemaId` with idempotency key `artist_advance:{engagementId}`. */
  readonly findAdvanceDraft: (
    schemaId: string,
    engagementId: string
  ) => Effect.Effect<Option.Option<Submission>, Unavailable>
  /**
   * One atomic step: find or create the advance draft (key `artist_advance:{engagement_id}` in
   * `schema_id`, subject and event from the command, status draft), merge `values` over its values
   * (other keys kept; `version` + 1, `updated_at` = `submitted_at`, `auto_save_count` unchanged),
   * mark the advance section `submitted` at `submitted_at`, and append the `section.submitted`
   * event built with `sectionSubmitted` (events/LifecycleEvents). SectionNotFound when the section
   * is not one of the engagement's (nothing written).
   */
  readonly submitSection: (
    command: SubmitSectionCommand
  ) => Effect.Effect<SubmitSectionResult, SectionNotFound | Unavailable>
}>()("@forms/domain/Engagements") {}
