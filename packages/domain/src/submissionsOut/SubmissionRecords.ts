/**
 * Port: an organisation's submissions and contacts as the organiser reads and erases them (CONTRACT §12).
 * Every method is scoped by organisation (a row of another one is an unknown one); each erasure is one
 * atomic step with its audit entries and its `submission.erased` events.
 */
import { Context, type Effect, type Option, type Stream } from "effect"
import type { SubmissionNotFound } from "../publicForms/errors.js"
import type { Actor } from "../shared/Actor.js"
import type { Unavailable } from "../shared/errors.js"
import type { CreatedKey, Page, PageRequest } from "../shared/paging.js"
import type { ContactNotFound } from "./errors.js"
import type { AdminContact, AdminSubmission, ExportColumns, SubmissionFilter } from "./SubmissionsOutModel.js"

type E<A, X = never> = Effect.Effect<A, X | Unavailable>

export class SubmissionRecords extends Context.Service<SubmissionRecords, {
  /** The form's export columns; None for an unknown form or one of another organisation. */
  readonly formColumns: (organisationId: string, formId: string) => E<Option.Option<ExportColumns>>
  /** The form's submissions oldest first (`created_at`, then `id` by code unit); the caller checked the form. */
  readonly list: (
    organisationId: string,
    formId: string,
    filter: SubmissionFilter,
    page: PageRequest<CreatedKey>
  ) => E<Page<AdminSubmission>>
  /**
   * Every submission of the form the filter keeps, in the order of `list`, read in batches (a cursor, or
   * keyset pages where the database has a single connection): memory stays flat whatever their number.
   * Interrupting the stream releases what it holds.
   */
  readonly exportRows: (
    organisationId: string,
    formId: string,
    filter: SubmissionFilter
  ) => Stream.Stream<AdminSubmission, Unavailable>
  readonly find: (organisationId: string, id: string) => E<Option.Option<AdminSubmission>>
  /**
   * One atomic step: the submission, its values, unique claims, slot places, tags and contact link are
   * deleted; its outbox payloads keep only their ids and `erased: true`; its contact's tags are recomputed
   * and a contact left with no submission is deleted; a `submission.erased` event and the audit entry are
   * recorded.
   */
  readonly erase: (actor: Actor, id: string, at: number) => E<void, SubmissionNotFound>
  /** The organisation's contacts newest first; with `key`, only the contact of that key. */
  readonly contacts: (organisationId: string, key: string | undefined, page: PageRequest<CreatedKey>) => E<Page<AdminContact>>
  /** One atomic step: every submission linked to the contact erased as `erase` does, then the contact. */
  readonly eraseContact: (actor: Actor, id: string, at: number) => E<void, ContactNotFound>
}>()("@forms/domain/SubmissionRecords") {}
