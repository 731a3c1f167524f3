/** Port: what the `submission.submitted` handlers write: a submission's tags and its contact. */
import { Context, type Effect, type Option } from "effect"
import type { Unavailable } from "../shared/errors.js"

export interface Contact {
  readonly id: string
  readonly organisation_id: string
  /** An email lower-cased, or a phone's digits; unique per organisation. */
  readonly key: string
  /** The union of the tags of the submissions linked to it, sorted by code unit, no duplicates. */
  readonly tags: ReadonlyArray<string>
}

export interface LinkContact {
  readonly organisation_id: string
  readonly key: string
  readonly submission_id: string
}

/** One submission's tags, for `setSubmissionTagsMany`. */
export interface SubmissionTags {
  readonly submission_id: string
  readonly tags: ReadonlyArray<string>
}

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
