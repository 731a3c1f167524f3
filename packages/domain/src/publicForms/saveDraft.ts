/**
 * Save (CONTRACT §3): token → submission → write limit → draft (409) → open (409) → values (422) → save. The
 * submission's existence and the limit are one step, and the draft check is made by the save itself (a
 * conditional update); only a closed form or refused values read the submission, to answer 409 before them.
 */
import { Clock, Effect } from "effect"
import type { FormSchema } from "../forms/FormSchema.js"
import type { Values } from "../forms/Values.js"
import { type AnswerLanguage, chooseAnswerLanguage, explicitLanguage } from "../languages/AnswerLanguage.js"
import { chooseLanguage } from "../languages/chooseLanguage.js"
import { failedInLanguage } from "../languages/failedInLanguage.js"
import { FormsConfig } from "../FormsConfig.js"
import { underLimit } from "../limits/Limited.js"
import { type Client, writePolicy } from "../limits/LimitPolicy.js"
import { RateLimiter } from "../limits/RateLimiter.js"
import { ValidationFailed } from "../rules/errors.js"
import { Unavailable } from "../shared/errors.js"
import { AnotherRound, inRounds } from "../shared/rounds.js"
import { AlreadySubmitted, FormClosed } from "./errors.js"
import { type FormSteps, maxRevisionRounds, revisionRounds } from "./formSteps.js"
import { acceptsSubmissions } from "./resolvePublicForm.js"
import { isDraft } from "./SubmissionLifecycle.js"
import { submissionLimitStep } from "./submissionLimitStep.js"
import { Submissions } from "./Submissions.js"
import { mergeValues, pickSchemaValues } from "./SubmissionValues.js"

export const makeSaveDraft = (steps: FormSteps) =>
  Effect.gen(function*() {
    const submissions = yield* Submissions
    const limiter = yield* RateLimiter
    const limitSubmission = submissionLimitStep(limiter)
    const config = yield* FormsConfig

    /**
     * The write limit, counted only for a submission of this form (an unknown id is a 404 it does not count):
     * one step. An exempt client is counted by no limit, so its submission is looked up instead.
     */
    const limit = (schema: FormSchema, submissionId: string, client: Client) =>
      client.exempt
        ? Effect.as(steps.findSubmission(schema, submissionId), undefined)
        : limitSubmission(writePolicy, config.writeLimitPerHour, schema.id, client, { schema_id: schema.id, id: submissionId })

    /** A submission submitted meanwhile (or before) answers 409 before a closed form or invalid values do. */
    const refuse = Effect.fnUntraced(function*(schema: FormSchema, submissionId: string, error: FormClosed | ValidationFailed) {
      const submission = yield* steps.findSubmission(schema, submissionId)
      return yield* (isDraft(submission) ? error : new AlreadySubmitted({}))
    })

    return Effect.fn("PublicForms.save")(function*(
      token: string,
      submissionId: string,
      body: Values,
      client: Client,
      language?: AnswerLanguage
    ) {
      const schema = yield* steps.resolve(token)
      yield* chooseAnswerLanguage(schema, language)
      const rateLimit = yield* limit(schema, submissionId, client)
      let current: FormSchema = schema
      let round = 0
      /** The round before lost its write to a form change: this round reads the form first. */
      let stale = false
      const saveRound = Effect.gen(function*() {
        round++
        if (stale) current = yield* steps.fresh(current)
        stale = false
        if (!acceptsSubmissions(current, yield* Clock.currentTimeMillis)) {
          return yield* refuse(current, submissionId, new FormClosed({}))
        }
        const values = pickSchemaValues(current.fields, body)
        const rules = steps.rules(current)
        // With conditions (CONTRACT §18) activity is decided on the saved values with the body over them, as read
        // now; a save racing ours changes nothing of what this one refuses.
        const context = rules.hasLogic
          ? mergeValues((yield* steps.findSubmission(current, submissionId)).values, values)
          : values
        const errors = yield* steps.withFileErrors(
          current,
          submissionId,
          values,
          yield* steps.withTaken(current, rules.relaxed(values, context))
        )
        if (errors !== undefined) {
          // Refused by the rules of the form as it is now, never by a cached older revision.
          const moved = round < maxRevisionRounds ? yield* steps.movedOn(current) : undefined
          if (moved === undefined) return yield* refuse(current, submissionId, failedInLanguage(errors, current, language))
          current = moved
          return yield* new AnotherRound()
        }
        // Merged and counted only while still a draft (a submitted one answers 409) and only while the form
        // is at the revision just validated against: otherwise again with fresh rules.
        const saved = yield* submissions.save(
          current.id,
          submissionId,
          values,
          current.revision,
          explicitLanguage(chooseLanguage(current, language ?? {}))
        ).pipe(
          Effect.catchTag("RevisionChanged", () => Effect.succeed(undefined))
        )
        if (saved !== undefined) return saved
        stale = true
        return yield* new AnotherRound()
      })
      return yield* underLimit(rateLimit)(
        inRounds(saveRound, revisionRounds, () => new Unavailable({ reason: "The form kept changing; nothing was saved." })).pipe(
          Effect.flatMap((saved) => steps.withAnswerParts(schema, saved))
        )
      )
    })
  })
