/**
 * The organiser's "Submissions out" use cases (CONTRACT §12) after authentication, the query and the `admin`
 * limit: ids in the path (404) → conflicts (409). Every call is scoped by the actor's organisation.
 */
import { Context, type Effect, type Stream } from "effect"
import type { FormNotFound } from "../forms/errors.js"
import type { SubmissionNotFound } from "../publicForms/errors.js"
import type { Actor } from "../shared/Actor.js"
import type { Unavailable } from "../shared/errors.js"
import type { CreatedKey, Page, PageRequest } from "../shared/paging.js"
import type { ContactNotFound, EventNotDead, OutboxEventNotFound } from "./errors.js"
import type {
  AdminContact,
  AdminSubmission,
  ExportColumns,
  OutboxEntry,
  OutboxState,
  SubmissionFilter,
  SweepResult
} from "./SubmissionsOutModel.js"

type E<A, X = never> = Effect.Effect<A, X | Unavailable>

/** An export: its columns, known before the first row is read, and its rows as a stream. */
export interface SubmissionExport {
  readonly columns: ExportColumns
  readonly rows: Stream.Stream<AdminSubmission, Unavailable>
}

export class SubmissionsOut extends Context.Service<SubmissionsOut, {
  readonly listSubmissions: (
    actor: Actor,
    formId: string,
    filter: SubmissionFilter,
    page: PageRequest<CreatedKey>
  ) => E<Page<AdminSubmission>, FormNotFound>
  readonly getSubmission: (actor: Actor, id: string) => E<AdminSubmission, SubmissionNotFound>
  /** FormNotFound before anything is streamed; the rows are read as the stream is pulled. */
  readonly exportSubmissions: (actor: Actor, formId: string, filter: SubmissionFilter) => E<SubmissionExport, FormNotFound>
  readonly eraseSubmission: (actor: Actor, id: string) => E<void, SubmissionNotFound>
  /** `email` is compared lower-cased (a contact's key is the lower-cased email). */
  readonly contacts: (actor: Actor, email: string | undefined, page: PageRequest<CreatedKey>) => E<Page<AdminContact>>
  readonly eraseContact: (actor: Actor, id: string) => E<void, ContactNotFound>
  /** Actor undefined: every organisation's events (the CLI's `events dead`). */
  readonly listOutbox: (actor: Actor | undefined, state: OutboxState, page: PageRequest<CreatedKey>) => E<Page<OutboxEntry>>
  /** The one path of `POST /admin/outbox/{id}/retry` and `pnpm cli events retry <id>` (actor undefined: unscoped). */
  readonly retryOutboxEvent: (actor: Actor | undefined, id: string) => E<OutboxEntry, OutboxEventNotFound | EventNotDead>
}>()("@forms/domain/SubmissionsOut") {}

/** The retention sweep (CONTRACT §12): `DRAFT_RETENTION_DAYS` and `OUTBOX_RETENTION_DAYS`. */
export interface RetentionPolicy {
  readonly draftRetentionDays: number
  readonly outboxRetentionDays: number
}

export type { SweepResult }
