/** The submit pipeline after the token and submission checks (CONTRACT §3): rate limit → state → open → validation → atomic submit. */
import { Clock, Effect, Option } from "effect"
import {
  AlreadySubmitted,
  FormClosed,
  RateLimited,
  SubmissionNotFound,
  Unavailable,
  ValidationFailed
} from "../Errors.js"
import { acceptsSubmissions } from "../forms/resolvePublicForm.js"
import type { FormSchema } from "../forms/FormSchema.js"
import type { FormsConfigShape } from "../FormsConfig.js"
import type { NewOutboxEvent } from "../ports/Outbox.js"
import type { RateLimiter } from "../ports/RateLimiter.js"
import type { Submissions } from "../ports/Submissions.js"
import type { CompiledRules, FieldErrors, UniqueCandidate, Validator } from "../rules/FieldErrors.js"
import type { Values } from "../Values.js"
import type { SubmitResult } from "./PublicForms.js"
import type { Submission } from "./Submission.js"
import { isDraft } from "./SubmissionLifecycle.js"
import { mergeValues, pickSchemaValues } from "./SubmissionValues.js"
import { withUniqueErrors } from "./uniqueErrors.js"
import { submitPolicy, submitRateLimitKey, submitWindowMs, toRateLimitState } from "./rateLimitState.js"

/** A save that lands between our read and our submit costs one round; this many rounds and we give up. */
export const maxSubmitAttempts = 50

export interface CheckedValues {
  /** The validator's errors plus `unique` errors; undefined when every rule passed. */
  readonly errors: FieldErrors | undefined
  /** The unique values to claim at submit. */
  readonly unique: ReadonlyArray<UniqueCandidate>
}

export interface SubmitDeps {
  readonly submissions: typeof Submissions.Service
  readonly limiter: typeof RateLimiter.Service
  readonly config: FormsConfigShape
  readonly rules: (schema: FormSchema) => CompiledRules
  readonly validate: (
    schema: FormSchema,
    validator: Validator,
    values: Values,
    /** Values valid but for `unique` skip the taken check: the atomic claim at submit decides. */
    claimDecides?: boolean
  ) => Effect.Effect<CheckedValues, Unavailable>
}

/** The outbox event of a public submit; `submitted_at` is the instant stored on the submission. */
export const submissionSubmittedEvent = (
  schema: FormSchema,
  submission: Submission,
  values: Values,
  submittedAt: number
): NewOutboxEvent => ({
  type: "submission.submitted",
  payload: {
    submission_id: submission.id,
    schema_id: schema.id,
    organisation_id: schema.organisation_id,
    event_id: submission.event_id,
    values,
    submitted_at: new Date(submittedAt).toISOString()
  }
})

export const submitDraft = (deps: SubmitDeps) =>
  Effect.fnUntraced(function*(
    schema: FormSchema,
    first: Submission,
    body: Values,
    clientIp: string
  ) {
    const limit = deps.config.submitLimitPerHour
    const decision = yield* deps.limiter.hit(submitRateLimitKey(schema.id, clientIp), limit, submitWindowMs)
    const rateLimit = toRateLimitState(submitPolicy, limit, submitWindowMs, decision)
    if (!decision.allowed) return yield* new RateLimited({ state: rateLimit })
    if (!isDraft(first)) return yield* new AlreadySubmitted({ rateLimit })
    if (!acceptsSubmissions(schema, yield* Clock.currentTimeMillis)) return yield* new FormClosed({ rateLimit })

    const rules = deps.rules(schema)
    const patch = pickSchemaValues(schema.fields, body)
    // Our read may predate a racing submit: a submission that is no longer a draft answers 409, not 422.
    const refuse = (fields: FieldErrors): Effect.Effect<never, AlreadySubmitted | ValidationFailed | Unavailable> =>
      deps.submissions.findInSchema(schema.id, first.id).pipe(
        Effect.flatMap((current): Effect.Effect<never, AlreadySubmitted | ValidationFailed> =>
          Option.isSome(current) && !isDraft(current.value)
            ? Effect.fail(new AlreadySubmitted({ rateLimit }))
            : Effect.fail(new ValidationFailed({ fields, rateLimit }))
        )
      )
    const bodyCheck = yield* deps.validate(schema, rules.relaxed, patch)
    if (bodyCheck.errors !== undefined) return yield* refuse(bodyCheck.errors)

    let submission = first
    for (let attempt = 1;; attempt++) {
      // Only the schema's slugs are stored, even if a field left the schema after a save.
      const merged = pickSchemaValues(schema.fields, mergeValues(submission.values, patch))
      // A taken value is found by the claim in the submit's transaction when nothing else fails (one query
      // less); with other errors it is checked here, so that the 422 lists every error at once.
      const check = yield* deps.validate(schema, rules.strict, merged, true)
      if (check.errors !== undefined) return yield* refuse(check.errors)

      const submittedAt = yield* Clock.currentTimeMillis
      const outcome = yield* deps.submissions.submit({
        schema_id: schema.id,
        id: submission.id,
        expected_version: submission.version,
        values: merged,
        claims: check.unique,
        submitted_at: submittedAt,
        events: [submissionSubmittedEvent(schema, submission, merged, submittedAt)]
      }).pipe(
        Effect.map((stored) => ({ _tag: "Submitted" as const, stored })),
        Effect.catchTag("VersionConflict", () => Effect.succeed({ _tag: "Conflict" as const })),
        // Another submit claimed the value after our check: the same answer as a `unique` failure.
        Effect.catchTag("UniqueTaken", (error) => refuse(withUniqueErrors(undefined, error.slugs) ?? {})),
        Effect.catchTag("AlreadySubmitted", () => Effect.fail(new AlreadySubmitted({ rateLimit })))
      )
      if (outcome._tag === "Submitted") return { submission: outcome.stored, rateLimit } satisfies SubmitResult

      // A save landed after our read: read again and validate what is stored now.
      if (attempt >= maxSubmitAttempts) {
        return yield* new Unavailable({ reason: "The submission kept changing; nothing was submitted." })
      }
      const reread = yield* deps.submissions.findInSchema(schema.id, submission.id)
      if (Option.isNone(reread)) return yield* new SubmissionNotFound({})
      if (!isDraft(reread.value)) return yield* new AlreadySubmitted({ rateLimit })
      submission = reread.value
    }
  })
