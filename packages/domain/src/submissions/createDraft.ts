/** Create (CONTRACT §3): request shape (the caller) → token → write limit → existing key → open → values → insert. */
import { Clock, Effect, Option } from "effect"
import { FormClosed, ValidationFailed } from "../Errors.js"
import { acceptsSubmissions } from "../forms/resolvePublicForm.js"
import { FormsConfig } from "../FormsConfig.js"
import type { Client } from "../limits/LimitPolicy.js"
import { writePolicy } from "../limits/LimitPolicy.js"
import { underLimit } from "../limits/Limited.js"
import { limitStep } from "../limits/limitStep.js"
import { RateLimiter } from "../ports/RateLimiter.js"
import { Submissions } from "../ports/Submissions.js"
import { emptyValues } from "../Values.js"
import type { FormSteps } from "./formSteps.js"
import type { CreateDraftInput } from "./PublicForms.js"
import { pickSchemaValues } from "./SubmissionValues.js"

export const makeCreateDraft = (steps: FormSteps) =>
  Effect.gen(function*() {
    const submissions = yield* Submissions
    const limit = limitStep(yield* RateLimiter)
    const config = yield* FormsConfig

    return Effect.fnUntraced(function*(token: string, input: CreateDraftInput, client: Client) {
      const schema = yield* steps.resolve(token)
      // A replay counts too: the limit sits before the key lookup.
      const rateLimit = yield* limit(writePolicy, config.writeLimitPerHour, schema.id, client)
      return yield* underLimit(rateLimit)(Effect.gen(function*() {
        // A replay gets its stored draft (200) whatever the form's state and its (ignored) values. The happy
        // path goes straight to `createOrGet`, which returns a replayed key's draft anyway; the key is looked
        // up first only before answering 409 or 422.
        const replay = submissions.findByKey(schema.id, input.idempotency_key)
        if (!acceptsSubmissions(schema, yield* Clock.currentTimeMillis)) {
          const existing = yield* replay
          if (Option.isSome(existing)) return { submission: existing.value, created: false }
          return yield* new FormClosed({})
        }
        const values = pickSchemaValues(schema.fields, input.values ?? emptyValues())
        const errors = yield* steps.withTaken(schema, steps.rules(schema).relaxed(values))
        if (errors !== undefined) {
          const existing = yield* replay
          if (Option.isSome(existing)) return { submission: existing.value, created: false }
          return yield* new ValidationFailed({ fields: errors })
        }
        // A racing create with the same key (or a replay) is returned as it is stored.
        return yield* submissions.createOrGet({
          schema_id: schema.id,
          idempotency_key: input.idempotency_key,
          event_id: schema.event?.id ?? null,
          subject_id: null,
          values
        })
      }))
    })
  })
