/**
 * Submit (CONTRACT §3): token → submission → submit limit → draft (409) → open (409) → the body checked
 * relaxed, merged over the saved values and checked strictly (422; a refused body is answered with the merged
 * map's errors beside its own) → the atomic submit with unique claims
 * and the `submission.submitted` event. A save that lands between our read and the submit costs a round.
 */
import { Clock, Effect, Metric, Option } from "effect"
import { submissionSubmitted } from "../events/LifecycleEvents.js"
import { hasFileField, referencedFiles } from "../files/answerFiles.js"
import { fileChoicesOf } from "../files/fileChoices.js"
import { FileStorage } from "../files/FileStorage.js"
import { FileUploads } from "../files/FileUploads.js"
import type { FormSchema } from "../forms/FormSchema.js"
import type { Values } from "../forms/Values.js"
import { type AnswerLanguage, chooseAnswerLanguage, explicitLanguage } from "../languages/AnswerLanguage.js"
import { chooseLanguage, type LanguageRequest } from "../languages/chooseLanguage.js"
import { FormsConfig } from "../FormsConfig.js"
import { underLimit } from "../limits/Limited.js"
import { type Client, submitPolicy } from "../limits/LimitPolicy.js"
import { limitStep } from "../limits/limitStep.js"
import { composeMessagesInLanguage } from "../languages/messagesInLanguage.js"
import { MessagesConfig } from "../messages/MessagesConfig.js"
import { makeRecipientGates, type RecipientGate } from "../messages/recipientPolicy.js"
import { planShiftReminders } from "../reminders/composeReminders.js"
import { RateLimiter } from "../limits/RateLimiter.js"
import { failedInLanguage } from "../languages/failedInLanguage.js"
import type { FieldErrors } from "../rules/FieldErrors.js"
import { submissionsSubmitted } from "../operations/counters.js"
import { Unavailable } from "../shared/errors.js"
import { AnotherRound, atMostRounds, inRounds } from "../shared/rounds.js"
import { AlreadySubmitted, FormClosed, SubmissionNotFound } from "./errors.js"
import { everyProblem } from "./everyProblem.js"
import type { FormSteps } from "./formSteps.js"
import { acceptsSubmissions } from "./resolvePublicForm.js"
import type { Submission } from "./Submission.js"
import { isDraft } from "./SubmissionLifecycle.js"
import { Submissions } from "./Submissions.js"
import { mergeValues, pickSchemaValues, withoutSlugs } from "./SubmissionValues.js"
import { withUniqueErrors } from "./uniqueErrors.js"

/** A save that lands between our read and our submit costs one round; this many rounds and we give up. */
export const maxSubmitAttempts = 50
const submitRounds = atMostRounds(maxSubmitAttempts)

export const makeSubmitDraft = (steps: FormSteps) =>
  Effect.gen(function*() {
    const submissions = yield* Submissions
    const limit = limitStep(yield* RateLimiter)
    const config = yield* FormsConfig
    const messagesConfig = yield* MessagesConfig
    const recipientGates = yield* makeRecipientGates
    const uploads = yield* FileUploads
    const storage = yield* FileStorage

    /**
     * After the submit committed (CONTRACT §23): the draft's uploads its values do not reference are detached, then
     * their contents and rows deleted; one that fails stays an orphan for the retention sweep to retry.
     */
    const dropUnreferenced = Effect.fnUntraced(function*(schema: FormSchema, submitted: Submission) {
      if (!hasFileField(schema)) return
      const keep = fileChoicesOf(schema, submitted.values, undefined).flatMap((choice) => choice.ids)
      const detached = yield* uploads.detachUnreferenced(submitted.id, keep)
      for (const id of detached) {
        yield* storage.remove(id).pipe(Effect.andThen(uploads.remove(id)), Effect.ignore)
      }
    })

    /** Our read may predate a racing submit: a submission that is no longer a draft answers 409, not 422. */
    const refuse = Effect.fnUntraced(function*(schema: FormSchema, id: string, fields: FieldErrors, asked: LanguageRequest) {
      const current = yield* submissions.findInSchema(schema.id, id)
      if (Option.isSome(current) && !isDraft(current.value)) return yield* new AlreadySubmitted({})
      return yield* failedInLanguage(fields, schema, asked)
    })

    /**
     * One round: the merged map checked strictly and submitted at the version read and the form's revision
     * validated against; "version" on a lost race with a save, "revision" when the form changed meanwhile.
     */
    const attempt = Effect.fnUntraced(function*(
      schema: FormSchema,
      submission: Submission,
      patch: Values,
      asked: LanguageRequest,
      gate: RecipientGate
    ) {
      // Values saved under a slug the form has dropped since stay stored (CONTRACT §12), but only the
      // form's own slugs are validated and put in the event.
      const kept = mergeValues(submission.values, patch)
      const all = pickSchemaValues(schema.fields, kept)
      const result = steps.rules(schema).strict(all)
      // Inactive fields' values (CONTRACT §18) are discarded at submit: stored, sent and claimed by nothing.
      const merged = withoutSlugs(all, result.inactive)
      const stored = withoutSlugs(kept, result.inactive)
      const errors = yield* steps.withFileErrors(
        schema,
        submission.id,
        merged,
        yield* steps.withTaken(schema, result, { claimDecides: true })
      )
      if (errors !== undefined) {
        // Refused by the rules of the form as it is now, never by a cached older revision.
        if ((yield* steps.movedOn(schema)) !== undefined) return "revision" as const
        return yield* refuse(schema, submission.id, errors, asked)
      }
      const submittedAt = yield* Clock.currentTimeMillis
      // A language the submit names explicitly replaces the one the draft recorded (CONTRACT §19).
      const named = explicitLanguage(chooseLanguage(schema, asked))
      const files = hasFileField(schema) ? referencedFiles(schema, merged, yield* uploads.storedOf(submission.id)) : undefined
      const event = submissionSubmitted({
        language: named ?? submission.language,
        submission_id: submission.id,
        schema_id: schema.id,
        organisation_id: schema.organisation_id,
        event_id: submission.event_id,
        values: merged,
        submitted_at: submittedAt,
        // The submit's step sets the places it took (shifts/placesTaken.ts).
        ...(schema.fields.some((field) => field.type === "time_slots") ? { places: [] } : {}),
        ...(files === undefined ? {} : { files })
      })
      const places = steps.slotDecision(schema, result.slots, submittedAt)
      return yield* submissions.submit({
        schema_id: schema.id,
        id: submission.id,
        expected_version: submission.version,
        revision: schema.revision,
        values: stored,
        claims: result.unique,
        places,
        manage: schema.fields.some((field) => field.type === "time_slots"),
        submitted_at: submittedAt,
        language: named,
        events: [event],
        // In the submission's language as this submit leaves it; the `recipient` policy counts the visitor's
        // address only once the submit is about to be written.
        messages: yield* gate(composeMessagesInLanguage(schema, merged, submission.id, messagesConfig.sending, named ?? submission.language)),
        reminders: planShiftReminders(schema, merged, places?.slot_ids ?? [])
      }).pipe(
        Effect.catchTag("VersionConflict", () => Effect.succeed("version" as const)),
        Effect.catchTag("RevisionChanged", () => Effect.succeed("revision" as const)),
        // Another submit claimed the value after our check: the same answer as a `unique` failure, with
        // the slot rules' errors beside it (read, since the places were not taken).
        Effect.catchTag("UniqueTaken", (taken) =>
          Effect.flatMap(
            steps.withSlotErrors(schema, withUniqueErrors(undefined, taken.slugs), result.slots ?? [], "read"),
            (fields) => refuse(schema, submission.id, fields ?? {}, asked)
          )),
        // The places taken broke a slot rule (`full` when another submit took the last place first).
        Effect.catchTag("SlotsRefused", (refused) => refuse(schema, submission.id, refused.fields, asked))
      )
    })

    /** The body's errors with the strict errors of the merged map beside them: one round of errors, never two. */
    const withMergedErrors = Effect.fnUntraced(function*(
      schema: FormSchema,
      submission: Submission,
      body: Values,
      bodyErrors: FieldErrors
    ) {
      const merged = pickSchemaValues(schema.fields, mergeValues(submission.values, pickSchemaValues(schema.fields, body)))
      const mergedErrors = yield* steps.withTaken(schema, steps.rules(schema).strict(merged), { atSubmit: true })
      return everyProblem(schema.fields.map((field) => field.slug), bodyErrors, mergedErrors)
    })

    const submitAfterLimit = Effect.fnUntraced(function*(
      firstSchema: FormSchema,
      first: Submission,
      body: Values,
      asked: LanguageRequest
    ) {
      if (!isDraft(first)) return yield* new AlreadySubmitted({})
      let schema = firstSchema
      let submission = first
      let checked: number | undefined
      let round = 0
      const gate = recipientGates(firstSchema.organisation_id)
      /** How the round before lost its submit, when it did: this round reads again first. */
      let lost: "version" | "revision" | undefined
      const submitRound = Effect.gen(function*() {
        round++
        if (lost !== undefined) {
          // A save landed after our read, or the form changed: read again and validate what is stored now.
          if (lost === "revision") schema = yield* steps.fresh(schema)
          lost = undefined
          const reread = yield* submissions.findInSchema(schema.id, submission.id)
          if (Option.isNone(reread)) return yield* new SubmissionNotFound({})
          if (!isDraft(reread.value)) return yield* new AlreadySubmitted({})
          submission = reread.value
        }
        // Checked again only when the form changed (a fresh revision brings fresh rules).
        if (checked !== schema.revision) {
          if (!acceptsSubmissions(schema, yield* Clock.currentTimeMillis)) return yield* new FormClosed({})
          const bodyValues = pickSchemaValues(schema.fields, body)
          const rules = steps.rules(schema)
          // Activity (CONTRACT §18) on the merged map: inactive fields' body values get only `invalid`.
          const context = rules.hasLogic ? mergeValues(pickSchemaValues(schema.fields, submission.values), bodyValues) : bodyValues
          const bodyErrors = yield* steps.withTaken(schema, rules.relaxed(bodyValues, context), { atSubmit: true })
          if (bodyErrors !== undefined) {
            const moved = round < maxSubmitAttempts ? yield* steps.movedOn(schema) : undefined
            if (moved === undefined) return yield* refuse(schema, submission.id, yield* withMergedErrors(schema, submission, body, bodyErrors), asked)
            schema = moved
            return yield* new AnotherRound()
          }
          checked = schema.revision
        }
        const stored = yield* attempt(schema, submission, pickSchemaValues(schema.fields, body), asked, gate)
        if (typeof stored === "object") return stored
        lost = stored
        return yield* new AnotherRound()
      })
      const submitted = yield* inRounds(
        submitRound,
        submitRounds,
        () => new Unavailable({ reason: "The submission kept changing; nothing was submitted." })
      )
      yield* Metric.update(submissionsSubmitted, 1)
      yield* dropUnreferenced(schema, submitted).pipe(Effect.ignore)
      return submitted
    })

    return Effect.fn("PublicForms.submit")(function*(
      token: string,
      submissionId: string,
      body: Values,
      client: Client,
      language?: AnswerLanguage
    ) {
      const schema = yield* steps.resolve(token)
      yield* chooseAnswerLanguage(schema, language)
      const submission = yield* steps.findSubmission(schema, submissionId)
      const rateLimit = yield* limit(submitPolicy, config.submitLimitPerHour, schema.id, client)
      return yield* underLimit(rateLimit)(
        submitAfterLimit(schema, submission, body, language ?? {}).pipe(Effect.flatMap((submitted) => steps.withAnswerParts(schema, submitted)))
      )
    })
  })
