/** Save (CONTRACT §3): token → submission → write limit → draft (409) → open (409) → values (422) → save. */
import { Clock, Effect } from "effect"
import { AlreadySubmitted, FormClosed, ValidationFailed } from "../Errors.js"
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
        if (!acceptsSubmissions(schema, yield* Clock.currentTimeMillis)) return yield* new FormClosed({})
        const values = pickSchemaValues(schema.fields, body)
        const errors = yield* steps.withTaken(schema, steps.rules(schema).relaxed(values))
        if (errors !== undefined) return yield* new ValidationFailed({ fields: errors })
        // Merged and counted only while still a draft: a racing submit makes it answer 409.
        return yield* submissions.save(schema.id, submissionId, values)
      }))
    })
  })
