/** Port: submissions. Every method is one atomic step (one statement, one transaction or one critical section). */
import { Context, type Effect, type Option, Schema } from "effect"
import type { NewOutboxEvent } from "../events/Outbox.js"
import type { NewMessage } from "../messages/Message.js"
import type { ShiftReminderPlan } from "../reminders/ReminderSubjects.js"
import type { RevisionChanged } from "../forms/errors.js"
import { Values } from "../forms/Values.js"
import type { FieldErrors } from "../rules/FieldErrors.js"
import type { Unavailable } from "../shared/errors.js"
import type { ChosenSlot } from "../shifts/RegistrationData.js"
import type { AlreadySubmitted, SlotsRefused, SubmissionNotFound, UniqueTaken, VersionConflict } from "./errors.js"
import type { Submission } from "./Submission.js"

export const NewDraft = Schema.Struct({
  schema_id: Schema.String,
  idempotency_key: Schema.String,
  event_id: Schema.NullOr(Schema.String),
  subject_id: Schema.NullOr(Schema.String),
  values: Values,
  /** The language chosen on the create (CONTRACT §19). */
  language: Schema.String,
  /**
   * The form's revision the values were validated against: when given, a new draft is inserted only while
   * it is still the form's revision (else RevisionChanged, nothing written); a stored key is returned anyway.
   */
  revision: Schema.optionalKey(Schema.Number)
})
export type NewDraft = typeof NewDraft.Type

/** A unique value a submit claims: the field's slug and the value's unique key (rules/uniqueKey.ts). */
export const UniqueClaim = Schema.Struct({
  slug: Schema.String,
  normalized: Schema.String
})
export type UniqueClaim = typeof UniqueClaim.Type

/**
 * The places a submit takes (CONTRACT §15), in the submit's atomic step. The store takes a place on each of
 * `slot_ids` that exists, then asks `decide` about the chosen slots as they are with those places taken
 * (`holders` counts this submission): errors refuse the submit (`SlotsRefused`) and nothing is written.
 */
export interface PlacesRequest {
  /** Distinct ids, in code-unit order (the order a store locks them in). */
  readonly slot_ids: ReadonlyArray<string>
  readonly decide: (held: ReadonlyArray<ChosenSlot>) => FieldErrors | undefined
}

export interface SubmitCommand {
  readonly schema_id: string
  readonly id: string
  /** The version the use case read and validated; a save after it fails the submit with VersionConflict. */
  readonly expected_version: number
  /**
   * The form's revision the values were validated against: when given, the submit fails with
   * RevisionChanged (writing nothing) unless it is still the form's revision in the same atomic step.
   */
  readonly revision?: number
  /**
   * What is stored: the merged map that passed strict validation, plus values saved earlier under slugs
   * the form has dropped since (kept, never validated).
   */
  readonly values: Values
  readonly claims: ReadonlyArray<UniqueClaim>
  /** A language the submit named explicitly (CONTRACT §19): it replaces the stored one; absent: kept. */
  readonly language?: string | undefined
  /** Places on time slots to take; absent or undefined when no slot is chosen. */
  readonly places?: PlacesRequest | undefined
  /** Epoch ms, set by the use case (from Effect's Clock): stored as `submitted_at` and `updated_at`, and the same instant is in the event payload. */
  readonly submitted_at: number
  /** Recorded in the same atomic step. */
  readonly events: ReadonlyArray<NewOutboxEvent>
  /**
   * A form with a `time_slots` field (CONTRACT §22): the step issues a manage token, keeps its hash and answers it
   * once, as `manage_token` on the submission it returns.
   */
  readonly manage?: boolean | undefined
  /** Messages the submit causes (confirmation, notices), recorded in the same atomic step; absent: none. */
  readonly messages?: ReadonlyArray<NewMessage> | undefined
  /** Shift reminders scheduled in the same atomic step, for the slots whose place it takes; absent: none. */
  readonly reminders?: ReadonlyArray<ShiftReminderPlan> | undefined
}

export class Submissions extends Context.Service<Submissions, {
  /** Inserts a draft unless (schema_id, idempotency_key) exists; returns the one stored either way. */
  readonly createOrGet: (
    draft: NewDraft
  ) => Effect.Effect<{ readonly submission: Submission; readonly created: boolean }, RevisionChanged | Unavailable>
  /** The submission of the schema with this idempotency key, whatever its status. */
  readonly findByKey: (
    schemaId: string,
    idempotencyKey: string
  ) => Effect.Effect<Option.Option<Submission>, Unavailable>
  /** None for an unknown id, an id of another schema, or a malformed id (never a failure). */
  readonly findInSchema: (schemaId: string, id: string) => Effect.Effect<Option.Option<Submission>, Unavailable>
  /**
   * Merges `patch` over the stored values and counts one save, only while the submission is a draft and,
   * when `revision` is given, only while it is the form's revision (else RevisionChanged, nothing written).
   * `language`, when given (a language the save named explicitly), replaces the stored one.
   */
  readonly save: (
    schemaId: string,
    id: string,
    patch: Values,
    revision?: number,
    language?: string
  ) => Effect.Effect<Submission, SubmissionNotFound | AlreadySubmitted | RevisionChanged | Unavailable>
  /** Marks the draft submitted at `expected_version` with its values, unique claims and outbox events. */
  readonly submit: (
    command: SubmitCommand
  ) => Effect.Effect<
    Submission,
    SubmissionNotFound | AlreadySubmitted | VersionConflict | UniqueTaken | SlotsRefused | RevisionChanged | Unavailable
  >
}>()("@forms/domain/Submissions") {}
