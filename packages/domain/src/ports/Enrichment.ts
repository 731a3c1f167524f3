/** Port: what the `submission.submitted` handlers write: a submission's tags and its contact. */
import { Context, type Effect, type Option } from "effect"
import type { Unavailable } from "../Errors.js"

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
  /** The submission's tags, sorted (empty when none were set). */
  readonly submissionTags: (submissionId: string) => Effect.Effect<ReadonlyArray<string>, Unavailable>
  readonly contactOfSubmission: (submissionId: string) => Effect.Effect<Option.Option<Contact>, Unavailable>
  readonly contacts: (organisationId: string) => Effect.Effect<ReadonlyArray<Contact>, Unavailable>
}>()("@forms/domain/Enrichment") {}
