/** The public-forms use cases (CONTRACT §3), in the contract's orders of checks. */
import { Context, type Effect } from "effect"
import type {
  AlreadySubmitted,
  FormClosed,
  FormNotFound,
  RateLimited,
  RateLimitState,
  SubmissionNotFound,
  TimeSlotsNotAvailable,
  Unavailable,
  ValidationFailed
} from "../Errors.js"
import type { FormSchema } from "../forms/FormSchema.js"
import type { RegistrationSection, TimeSlot } from "../registration/Registration.js"
import type { Submission } from "./Submission.js"
import type { Values } from "../Values.js"

export interface FormView {
  readonly schema: FormSchema
  readonly accepts_submissions: boolean
}

export interface CreateDraftInput {
  /** Already checked against `^[\x21-\x7E]{16,255}$` by the caller (a request-shape rule). */
  readonly idempotency_key: string
  readonly values?: Values | undefined
}

export interface SubmitResult {
  readonly submission: Submission
  readonly rateLimit: RateLimitState
}

export class PublicForms extends Context.Service<PublicForms, {
  readonly getForm: (token: string) => Effect.Effect<FormView, FormNotFound | Unavailable>
  readonly createDraft: (
    token: string,
    input: CreateDraftInput
  ) => Effect.Effect<
    { readonly submission: Submission; readonly created: boolean },
    FormNotFound | FormClosed | ValidationFailed | Unavailable
  >
  readonly save: (
    token: string,
    submissionId: string,
    values: Values
  ) => Effect.Effect<
    Submission,
    FormNotFound | SubmissionNotFound | AlreadySubmitted | FormClosed | ValidationFailed | Unavailable
  >
  /** Errors after the rate-limit step carry the limiter state in `rateLimit`, for the headers. */
  readonly submit: (
    token: string,
    submissionId: string,
    values: Values,
    clientIp: string
  ) => Effect.Effect<
    SubmitResult,
    | FormNotFound
    | SubmissionNotFound
    | RateLimited
    | AlreadySubmitted
    | FormClosed
    | ValidationFailed
    | Unavailable
  >
  readonly timeSlots: (
    token: string
  ) => Effect.Effect<ReadonlyArray<TimeSlot>, FormNotFound | TimeSlotsNotAvailable | Unavailable>
  readonly sections: (token: string) => Effect.Effect<ReadonlyArray<RegistrationSection>, FormNotFound | Unavailable>
}>()("@forms/domain/PublicForms") {}
