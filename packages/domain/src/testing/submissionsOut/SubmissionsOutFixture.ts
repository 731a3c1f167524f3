/**
 * What the conformance suite of SubmissionRecords, OutboxAdmin and Retention needs besides the ports: a way
 * to store forms, submissions, contacts and outbox events directly, and to look at what is left. Each
 * adapter brings its own (the in-memory one beside it, the SQL one in adapters-sql's tests).
 */
import { Context, type Effect } from "effect"
import type { Actor } from "../../shared/Actor.js"

export interface FixtureField {
  readonly slug: string
  readonly position: number
  /** A section of the form: its id and position; absent for a field without a section. */
  readonly section?: { readonly id: string; readonly position: number } | undefined
}

export interface FixtureSubmission {
  readonly form_id: string
  readonly idempotency_key: string
  readonly status: "draft" | "submitted"
  readonly values: Readonly<Record<string, unknown>>
  readonly tags?: ReadonlyArray<string> | undefined
  readonly created_at: number
  readonly updated_at?: number | undefined
  /** Unique claims held: slug and value text. */
  readonly claims?: ReadonlyArray<{ readonly slug: string; readonly value: string }> | undefined
  /** Links the submission to the organisation's contact of this key (created when absent), tags recomputed. */
  readonly contact_key?: string | undefined
  /** A portal draft (the engagement's advance): never swept. */
  readonly portal?: boolean | undefined
  /** The submission's language (CONTRACT §19); `en` when absent. */
  readonly language?: string | undefined
  /** Records a `submission.submitted` event with the values in its payload, in this state. */
  readonly event?: "pending" | "delivered" | "dead" | undefined
}

export interface FixtureEvent {
  readonly organisation_id: string
  readonly state: "pending" | "delivered" | "dead"
  readonly created_at: number
  /** The time of delivery or death; `created_at` when absent. */
  readonly at?: number | undefined
  readonly payload?: Readonly<Record<string, unknown>> | undefined
}

export interface FixtureOutboxRow {
  readonly id: string
  readonly type: string
  readonly payload: Readonly<Record<string, unknown>>
}

export class SubmissionsOutFixture extends Context.Service<SubmissionsOutFixture, {
  /** A new organisation and an actor of it (no key). */
  readonly newActor: Effect.Effect<Actor>
  readonly addForm: (organisationId: string, fields: ReadonlyArray<FixtureField>) => Effect.Effect<string>
  /** Fails (a defect) when the form already has a submission with this idempotency key. */
  readonly addSubmission: (submission: FixtureSubmission) => Effect.Effect<string>
  readonly addEvent: (event: FixtureEvent) => Effect.Effect<string>
  readonly claimsOf: (submissionId: string) => Effect.Effect<number>
  /** Whether a submission with this id is stored. */
  readonly exists: (submissionId: string) => Effect.Effect<boolean>
  /** Every outbox event whose payload names the submission. */
  readonly eventsOf: (submissionId: string) => Effect.Effect<ReadonlyArray<FixtureOutboxRow>>
  readonly eventPayload: (eventId: string) => Effect.Effect<Readonly<Record<string, unknown>>>
  /** The organisation's audit entries, oldest first. */
  readonly audit: (organisationId: string) => Effect.Effect<ReadonlyArray<{ readonly action: string; readonly resource_id: string }>>
}>()("@forms/domain/testing/SubmissionsOutFixture") {}
