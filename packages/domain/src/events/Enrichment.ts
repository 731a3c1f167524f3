/** Port: what the `submission.submitted` handlers write: a submission's tags and its contact. */
import { Context, type Effect, type Option, Schema } from "effect"
import type { Unavailable } from "../shared/errors.js"

export const Contact = Schema.Struct({
  id: Schema.String,
  organisation_id: Schema.String,
  /** An email lower-cased, or a phone's digits; unique per organisation. */
  key: Schema.String,
  /** The union of the tags of the submissions linked to it, sorted by code unit, no duplicates. */
  tags: Schema.Array(Schema.String)
})
export type Contact = typeof Contact.Type

export const LinkContact = Schema.Struct({
  organisation_id: Schema.String,
  key: Schema.String,
  submission_id: Schema.String
})
export type LinkContact = typeof LinkContact.Type

/** One submission's tags, for `setSubmissionTagsMany`. */
export const SubmissionTags = Schema.Struct({
  submission_id: Schema.String,
  tags: Schema.Array(Schema.String)
})
export type SubmissionTags = typeof SubmissionTags.Type

export class Enrichment extends Context.Service<Enrichment, {
  /**
   * One atomic step: the submission's tags become exactly `tags` (a set, not appended), and the
   * tags of the contact it is linked to (if any) are recomputed as the union over its submissions.
   */
  readonly setSubmissionTags: (submissionId: string, tags: ReadonlyArray<string>) => Effect.Effect<void, Unavailable>
  /**
   * One atomic step: finds or creates the organisation's contact with this key (two racing calls
   * get one contact), links the submission to it (a submission has at most one contact: a link
   * to another contact moves it), and recomputes the tags of every contact it touched.
   */
  readonly linkContact: (link: LinkContact) => Effect.Effect<Contact, Unavailable>
  /**
   * `setSubmissionTags` for a batch (the event dispatcher's), as one atomic step: every submission's tags
   * are set, then the tags of every contact they are linked to are recomputed once. A submission named twice
   * gets the tags of its last item.
   */
  readonly setSubmissionTagsMany: (items: ReadonlyArray<SubmissionTags>) => Effect.Effect<void, Unavailable>
  /**
   * `linkContact` for a batch, as one atomic step with the same rules per link (a submission named twice is
   * linked by its last item). Returns nothing: the dispatcher's handlers need no contact back.
   */
  readonly linkContacts: (links: ReadonlyArray<LinkContact>) => Effect.Effect<void, Unavailable>
  /** The submission's tags, sorted (empty when none were set). */
  readonly submissionTags: (submissionId: string) => Effect.Effect<ReadonlyArray<string>, Unavailable>
  readonly contactOfSubmission: (submissionId: string) => Effect.Effect<Option.Option<Contact>, Unavailable>
  readonly contacts: (organisationId: string) => Effect.Effect<ReadonlyArray<Contact>, Unavailable>
}>()("@forms/domain/Enrichment") {}
