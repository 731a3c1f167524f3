/** The public-forms use cases (CONTRACT §3), in the contract's orders of checks. */
import { Context, type Effect, Schema } from "effect"
import type { FormNotFound } from "../forms/errors.js"
import type { AnswerLanguage } from "../languages/AnswerLanguage.js"
import { FormSchema } from "../forms/FormSchema.js"
import { Values } from "../forms/Values.js"
import type { RateLimited } from "../limits/errors.js"
import type { Limited, Refused } from "../limits/Limited.js"
import type { Client } from "../limits/LimitPolicy.js"
import type { ValidationFailed } from "../rules/errors.js"
import type { Unavailable } from "../shared/errors.js"
import type { TimeSlot } from "../shifts/TimeSlot.js"
import type { AlreadySubmitted, FormClosed, SubmissionNotFound, TimeSlotsNotAvailable } from "./errors.js"
import type { RegistrationSection } from "./RegistrationSection.js"
import type { Submission } from "./Submission.js"

/** A public form as its token opens it, and whether it takes submissions now. */
export const FormView = Schema.Struct({
  schema: FormSchema,
  accepts_submissions: Schema.Boolean
})
export type FormView = typeof FormView.Type

export const CreateDraftInput = Schema.Struct({
  /** Already checked by the caller against the key pattern of CONTRACT §3 (a request-shape rule; `IdempotencyKeyPattern` in adapters-http). */
  idempotency_key: Schema.String,
  values: Schema.optional(Values)
})
export type CreateDraftInput = typeof CreateDraftInput.Type

/** What a save or a submit may answer besides its success: 404s before the limit, refusals after it, 503. */
export type DraftWriteError =
  | FormNotFound
  | SubmissionNotFound
  | Refused<RateLimited | SubmissionNotFound | AlreadySubmitted | FormClosed | ValidationFailed>
  | Unavailable

/** Answers at or after the write or submit limit are `Limited`; their refusals are `Refused` (limits/Limited.ts). */
export class PublicForms extends Context.Service<PublicForms, {
  readonly getForm: (token: string) => Effect.Effect<FormView, FormNotFound | Unavailable>
  /** token (404) → write limit (429) → existing key (200) → open (409) → values (422) → 201. */
  readonly createDraft: (
    token: string,
    input: CreateDraftInput,
    client: Client,
    language?: AnswerLanguage
  ) => Effect.Effect<
    Limited<{ readonly submission: Submission; readonly created: boolean }>,
    FormNotFound | Refused<RateLimited | FormClosed | ValidationFailed> | Unavailable
  >
  /** token (404) → submission (404) → write limit (429) → draft (409) → open (409) → values (422). */
  readonly save: (
    token: string,
    submissionId: string,
    values: Values,
    client: Client,
    language?: AnswerLanguage
  ) => Effect.Effect<Limited<Submission>, DraftWriteError>
  /** token (404) → submission (404) → submit limit (429) → draft (409) → open (409) → values (422). */
  readonly submit: (
    token: string,
    submissionId: string,
    values: Values,
    client: Client,
    language?: AnswerLanguage
  ) => Effect.Effect<Limited<Submission>, DraftWriteError>
  readonly timeSlots: (
    token: string,
    language?: AnswerLanguage
  ) => Effect.Effect<ReadonlyArray<TimeSlot>, FormNotFound | TimeSlotsNotAvailable | Unavailable>
  readonly sections: (token: string, language?: AnswerLanguage) => Effect.Effect<ReadonlyArray<RegistrationSection>, FormNotFound | Unavailable>
}>()("@forms/domain/PublicForms") {}
