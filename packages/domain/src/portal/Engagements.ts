/** Port: the artist portal's engagements, read by token or id, the advance draft, and the atomic section submit. */
import { Context, type Effect, type Option } from "effect"
import type { RevisionChanged } from "../forms/errors.js"
import type { SectionNotFound } from "./errors.js"
import type { Unavailable } from "../shared/errors.js"
import type { VersionConflict } from "../publicForms/errors.js"
import type { AdvanceSection, PortalContext } from "./Engagement.js"
import type { NewOutboxEvent } from "../events/Outbox.js"
import type { Submission } from "../publicForms/Submission.js"
import type { Values } from "../forms/Values.js"

/** The engagement's advance draft, created empty when the first valid section submit finds none. */
export interface NewAdvanceDraft {
  readonly engagement_id: string
  /** The organisation's `artist_advance` schema: the draft belongs to it. */
  readonly schema_id: string
  /** The engagement's master artist. */
  readonly subject_id: string
  /** The engagement's event. */
  readonly event_id: string
  /** Epoch ms from Effect's Clock: `created_at` and `updated_at`. */
  readonly created_at: number
}

export interface SubmitSectionCommand {
  readonly engagement_id: string
  /** The engagement's advance section being submitted. */
  readonly section_id: string
  /** The organisation's `artist_advance` schema the draft belongs to. */
  readonly schema_id: string
  /** The advance draft the use case read, and the version it merged and validated. */
  readonly draft_id: string
  readonly expected_version: number
  /**
   * The advance schema's revision the values were validated against (CONTRACT §12, "a change applies at once"):
   * when given, written only while it is still the schema's revision.
   */
  readonly revision?: number | undefined
  /** The section's values after the merge and strict validation: only slugs of the section's fields. */
  readonly values: Values
  /** Epoch ms from Effect's Clock: the section's `submitted_at` and the draft's `updated_at`. */
  readonly submitted_at: number
  /** The `section.submitted` event (built by the use case with `sectionSubmitted`): recorded as is. */
  readonly event: NewOutboxEvent
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
   * Inserts the empty advance draft (key `artist_advance:{engagement_id}` in `schema_id`, status draft,
   * version 1) unless it exists; answers the one stored either way. Racing calls get one draft. RevisionChanged
   * (nothing written) when the schema no longer exists: deleted since the use case read it.
   */
  readonly createAdvanceDraft: (draft: NewAdvanceDraft) => Effect.Effect<Submission, RevisionChanged | Unavailable>
  /**
   * One atomic step, only while the draft `draft_id` of `schema_id` is still at `expected_version`:
   * write `values` over its values (other keys kept; `version` + 1, `updated_at` = `submitted_at`,
   * `auto_save_count` unchanged), mark the advance section `submitted` at `submitted_at`, and record
   * `event`. SectionNotFound when the section is not one of the engagement's; RevisionChanged when the
   * schema left `revision`; VersionConflict when the draft moved on (or is gone) since the use case read it.
   * Every failure writes nothing.
   */
  readonly submitSection: (
    command: SubmitSectionCommand
  ) => Effect.Effect<SubmitSectionResult, SectionNotFound | RevisionChanged | VersionConflict | Unavailable>
}>()("@forms/domain/Engagements") {}
