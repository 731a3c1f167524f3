/** Port: the artist portal's engagements, read by token or id, the advance draft, and the atomic section submit. */
import { Context, type Effect, type Option, Schema } from "effect"
import { NewOutboxEvent } from "../events/Outbox.js"
import type { RevisionChanged } from "../forms/errors.js"
import { Values } from "../forms/Values.js"
import type { VersionConflict } from "../publicForms/errors.js"
import { Submission } from "../publicForms/Submission.js"
import type { Unavailable } from "../shared/errors.js"
import { AdvanceSection, type PortalContext } from "./Engagement.js"
import type { SectionLocked, SectionNotFound } from "./errors.js"

/** The engagement's advance draft, created empty when the first valid section submit finds none. */
export const NewAdvanceDraft = Schema.Struct({
  engagement_id: Schema.String,
  /** The organisation's `artist_advance` schema: the draft belongs to it. */
  schema_id: Schema.String,
  /** The engagement's master artist. */
  subject_id: Schema.String,
  /** The engagement's event. */
  event_id: Schema.String,
  /** Epoch ms from Effect's Clock: `created_at` and `updated_at`. */
  created_at: Schema.Number
})
export type NewAdvanceDraft = typeof NewAdvanceDraft.Type

export const SubmitSectionCommand = Schema.Struct({
  engagement_id: Schema.String,
  /** The engagement's advance section being submitted. */
  section_id: Schema.String,
  /** The organisation's `artist_advance` schema the draft belongs to. */
  schema_id: Schema.String,
  /** The advance draft the use case read, and the version it merged and validated. */
  draft_id: Schema.String,
  expected_version: Schema.Number,
  /**
   * The advance schema's revision the values were validated against (CONTRACT §12, "a change applies at once"):
   * when given, written only while it is still the schema's revision.
   */
  revision: Schema.optional(Schema.Number),
  /** The section's values after the merge and strict validation: only slugs of the section's fields. */
  values: Values,
  /** Epoch ms from Effect's Clock: the section's `submitted_at` and the draft's `updated_at`. */
  submitted_at: Schema.Number,
  /** The `section.submitted` event (built by the use case with `sectionSubmitted`): recorded as is. */
  event: NewOutboxEvent
})
export type SubmitSectionCommand = typeof SubmitSectionCommand.Type

export const SubmitSectionResult = Schema.Struct({
  /** The advance draft after the merge (still a draft). */
  submission: Submission,
  /** The advance section after the submit (`submitted`, `submitted_at` moved). */
  section: AdvanceSection
})
export type SubmitSectionResult = typeof SubmitSectionResult.Type

export const SaveSectionCommand = Schema.Struct({
  engagement_id: Schema.String,
  /** The engagement's advance section whose draft values are saved. */
  section_id: Schema.String,
  /** The organisation's `artist_advance` schema the draft belongs to, and the draft. */
  schema_id: Schema.String,
  draft_id: Schema.String,
  /** The advance schema's revision the values were checked against: written only while it still is. */
  revision: Schema.optional(Schema.Number),
  /** The body's values of the section's fields, checked with relaxed rules. */
  values: Values,
  /** Epoch ms from Effect's Clock: the draft's `updated_at`, and the instant the lock is checked at. */
  saved_at: Schema.Number
})
export type SaveSectionCommand = typeof SaveSectionCommand.Type

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
   * `event`. SectionNotFound when the section is not one of the engagement's; SectionLocked when it is locked
   * at `submitted_at` (CONTRACT §21), checked by the section's write itself, so that a lock committed before
   * it refuses it and a lock committed after it waits for it (no write lands after a lock was answered);
   * RevisionChanged when the schema left `revision`; VersionConflict when the draft moved on (or is gone) since
   * the use case read it. Every failure writes nothing.
   */
  readonly submitSection: (
    command: SubmitSectionCommand
  ) => Effect.Effect<SubmitSectionResult, SectionNotFound | SectionLocked | RevisionChanged | VersionConflict | Unavailable>
  /**
   * One atomic step (CONTRACT §21, section drafts): only while the engagement's section is unlocked at `saved_at`
   * (checked in the step itself, ordered with a lock's change as `submitSection` is) and the schema is at
   * `revision`, writes `values` over the draft's values (other keys kept; `version` + 1, `updated_at` =
   * `saved_at`, `auto_save_count` + 1). The section's status does not change and no event is recorded.
   * SectionNotFound, SectionLocked, RevisionChanged, or VersionConflict when the draft is gone; each writes nothing.
   */
  readonly saveSection: (
    command: SaveSectionCommand
  ) => Effect.Effect<Submission, SectionNotFound | SectionLocked | RevisionChanged | VersionConflict | Unavailable>
}>()("@forms/domain/Engagements") {}
