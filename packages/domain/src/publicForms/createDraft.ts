/** Create (CONTRACT §3): request shape (the caller) → token → write limit → existing key → open → values → insert. */
import { Clock, Effect, Option } from "effect"
import type { FormSchema } from "../forms/FormSchema.js"
import { emptyValues } from "../forms/Values.js"
import { type AnswerLanguage, chooseAnswerLanguage } from "../languages/AnswerLanguage.js"
import { chooseLanguage } from "../languages/chooseLanguage.js"
import { FormsConfig } from "../FormsConfig.js"
import { underLimit } from "../limits/Limited.js"
import { type Client, writePolicy } from "../limits/LimitPolicy.js"
import { limitStep } from "../limits/limitStep.js"
import { RateLimiter } from "../limits/RateLimiter.js"
import { failedInLanguage } from "../languages/failedInLanguage.js"
import { Unavailable } from "../shared/errors.js"
import { AnotherRound, inRounds } from "../shared/rounds.js"
import { FormClosed } from "./errors.js"
import { type FormSteps, maxRevisionRounds, revisionRounds } from "./formSteps.js"
import type { CreateDraftInput } from "./PublicForms.js"
import { acceptsSubmissions } from "./resolvePublicForm.js"
import { Submissions } from "./Submissions.js"
import { pickSchemaValues } from "./SubmissionValues.js"

export const makeCreateDraft = (steps: FormSteps) =>
  Effect.gen(function*() {
    const submissions = yield* Submissions
    const limit = limitStep(yield* RateLimiter)
    const config = yield* FormsConfig

    return Effect.fn("PublicForms.createDraft")(function*(token: string, input: CreateDraftInput, client: Client, language?: AnswerLanguage) {
      const schema = yield* steps.resolve(token)
      yield* chooseAnswerLanguage(schema, language)
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
        let current: FormSchema = schema
        let round = 0
        /** The round before lost its insert to a form change: this round reads the form first. */
        let stale = false
        const createRound = Effect.gen(function*() {
          round++
          if (stale) current = yield* steps.fresh(current)
          stale = false
          if (round > 1 && !acceptsSubmissions(current, yield* Clock.currentTimeMillis)) {
            const existing = yield* replay
            if (Option.isSome(existing)) return { submission: existing.value, created: false }
            return yield* new FormClosed({})
          }
          const values = pickSchemaValues(current.fields, input.values ?? emptyValues())
          const errors = yield* steps.withTaken(current, steps.rules(current).relaxed(values))
          if (errors !== undefined) {
            const existing = yield* replay
            if (Option.isSome(existing)) return { submission: existing.value, created: false }
            // Refused by the rules of the form as it is now, never by a cached older revision.
            const moved = round < maxRevisionRounds ? yield* steps.movedOn(current) : undefined
            if (moved === undefined) return yield* failedInLanguage(errors, current, language)
            current = moved
            return yield* new AnotherRound()
          }
          // A racing create with the same key (or a replay) is returned as it is stored. Values are written
          // only while the form is at the revision they were validated against.
          const result = yield* submissions.createOrGet({
            schema_id: current.id,
            idempotency_key: input.idempotency_key,
            event_id: current.event?.id ?? null,
            subject_id: null,
            values,
            // Chosen among the languages of the revision written against (CONTRACT §19).
            language: chooseLanguage(current, language ?? {}).language,
            ...(Object.keys(values).length > 0 ? { revision: current.revision } : {})
          }).pipe(Effect.catchTag("RevisionChanged", () => Effect.succeed(undefined)))
          if (result !== undefined) return result
          stale = true
          return yield* new AnotherRound()
        })
        const result = yield* inRounds(
          createRound,
          revisionRounds,
          () => new Unavailable({ reason: "The form kept changing; nothing was created." })
        )
        // A replay of a submitted submission shows its places now (CONTRACT §22).
        return { ...result, submission: yield* steps.withAnswerParts(schema, result.submission) }
      }))
    })
  })
