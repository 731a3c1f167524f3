/** Save (CONTRACT §3): token → submission → write limit → draft (409) → open (409) → values (422) → save. */
import { Clock, Effect } from "effect"
import { AlreadySubmitted, FormClosed, Unavailable, ValidationFailed } from "../Errors.js"
import type { FormSchema } from "../forms/FormSchema.js"
import { acceptsSubmissions } from "../forms/resolvePublicForm.js"
import { FormsConfig } from "../FormsConfig.js"
import { type Client, writePolicy } from "../limits/LimitPolicy.js"
import { underLimit } from "../limits/Limited.js"
import { limitStep } from "../limits/limitStep.js"
import { RateLimiter } from "../ports/RateLimiter.js"
import { Submissions } from "../ports/Submissions.js"
import type { Values } from "../Values.js"
import type { FormSteps } from "./formSteps.js"
import { isDraft } from "./SubmissionLifecycle.js"
import { pickSchemaValues } from "./SubmissionValues.js"

/** A form changed between validation and write costs one round; this many rounds and we give up. */
export const maxRevisionRounds = 20

export const makeSaveDraft = (steps: FormSteps) =>
  Effect.gen(function*() {
    const submissions = yield* Submissions
    const limit = limitStep(yield* RateLimiter)
    const config = yield* FormsConfig

    return Effect.fnUntraced(function*(token: string, submissionId: string, body: Values, client: Client) {
      const schema = yield* steps.resolve(token)
      // An unknown id is a 404 that the limit does not count.
      const submission = yield* steps.findSubmission(schema, submissionId)
      const rateLimit = yield* limit(writePolicy, config.writeLimitPerHour, schema.id, client)
      return yield* underLimit(rateLimit)(Effect.gen(function*() {
        if (!isDraft(submission)) return yield* new AlreadySubmitted({})
        let current: FormSchema = schema
        for (let round = 1;; round++) {
          if (!acceptsSubmissions(current, yield* Clock.currentTimeMillis)) return yield* new FormClosed({})
          const values = pickSchemaValues(current.fields, body)
          const errors = yield* steps.withTaken(current, steps.rules(current).relaxed(values))
          if (errors !== undefined) {
            // Refused by the rules of the form as it is now, never by a cached older revision.
            const moved = round < maxRevisionRounds ? yield* steps.movedOn(current) : undefined
            if (moved === undefined) return yield* new ValidationFailed({ fields: errors })
            current = moved
            continue
          }
          // Merged and counted only while still a draft (a racing submit makes it answer 409) and only
          // while the form is at the revision just validated against: otherwise again with fresh rules.
          const saved = yield* submissions.save(current.id, submissionId, values, current.revision).pipe(
            Effect.catchTag("RevisionChanged", () => Effect.succeed(undefined))
          )
          if (saved !== undefined) return saved
          if (round >= maxRevisionRounds) {
            return yield* new Unavailable({ reason: "The form kept changing; nothing was saved." })
          }
          current = yield* steps.fresh(current)
        }
      }))
    })
  })
