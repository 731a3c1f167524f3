/** The PublicForms use cases over the ports, in the contract's orders of checks (CONTRACT §3). */
import { Clock, Effect, Layer, Option } from "effect"
import { AlreadySubmitted, FormClosed, FormNotFound, SubmissionNotFound, TimeSlotsNotAvailable, ValidationFailed } from "../Errors.js"
import type { FormSchema } from "../forms/FormSchema.js"
import { acceptsSubmissions, resolvePublicForm } from "../forms/resolvePublicForm.js"
import { FormsConfig } from "../FormsConfig.js"
import { FormSchemas } from "../ports/FormSchemas.js"
import { RateLimiter } from "../ports/RateLimiter.js"
import { RegistrationData } from "../ports/RegistrationData.js"
import { Submissions } from "../ports/Submissions.js"
import { UniqueValues } from "../ports/UniqueValues.js"
import { festivalEventIds, toTimeSlots } from "../registration/timeSlots.js"
import { registrationSections } from "../registration/registrationSections.js"
import type { CompiledRules, Validator } from "../rules/FieldErrors.js"
import { makeRulesCache } from "../rules/RulesCache.js"
import { emptyValues, type Values } from "../Values.js"
import { type CreateDraftInput, PublicForms } from "./PublicForms.js"
import { isDraft } from "./SubmissionLifecycle.js"
import { pickSchemaValues } from "./SubmissionValues.js"
import { type CheckedValues, submitDraft } from "./submitDraft.js"
import { withUniqueErrors } from "./uniqueErrors.js"

/** The key of compiled rules: a schema's definition changes only with its revision. */
export const rulesCacheKey = (schema: FormSchema): string => `${schema.id}:${schema.revision}`

export const makePublicForms = Effect.gen(function*() {
  const schemas = yield* FormSchemas
  const submissions = yield* Submissions
  const uniqueValues = yield* UniqueValues
  const limiter = yield* RateLimiter
  const registration = yield* RegistrationData
  const config = yield* FormsConfig
  const cache = makeRulesCache()

  const rules = (schema: FormSchema): CompiledRules => cache.get(rulesCacheKey(schema), schema.fields)

  /** The shared resolver of all six routes: 404 unless the token opens a published public form. */
  const resolve = Effect.fnUntraced(function*(token: string) {
    const found = yield* schemas.findByToken(token)
    const now = yield* Clock.currentTimeMillis
    const schema = resolvePublicForm(Option.getOrUndefined(found), token, now, config.tokenGraceSeconds)
    if (schema === undefined) return yield* new FormNotFound({})
    return schema
  })

  /**
   * A validator's answer, with `unique` checked against submitted values only when a candidate exists.
   * With `claimDecides`, values that pass every other rule are not checked here: the caller's atomic claim
   * answers a taken value (as `UniqueTaken`) with the same 422.
   */
  const validate = Effect.fnUntraced(function*(
    schema: FormSchema,
    validator: Validator,
    values: Values,
    claimDecides?: boolean
  ) {
    const result = validator(values)
    const skip = result.unique.length === 0 || (claimDecides === true && result.errors === undefined)
    const taken = skip ? [] : yield* uniqueValues.taken(schema.id, result.unique)
    return { errors: withUniqueErrors(result.errors, taken), unique: result.unique } satisfies CheckedValues
  })

  /** Unknown id and an id of another schema give the same answer. */
  const findSubmission = Effect.fnUntraced(function*(schema: FormSchema, id: string) {
    const found = yield* submissions.findInSchema(schema.id, id)
    if (Option.isNone(found)) return yield* new SubmissionNotFound({})
    return found.value
  })

  const getForm = Effect.fnUntraced(function*(token: string) {
    const schema = yield* resolve(token)
    const now = yield* Clock.currentTimeMillis
    return { schema, accepts_submissions: acceptsSubmissions(schema, now) }
  })

  // token → existing key (any status, open or not) → open → values → insert. A replay never fails on a
  // closed form or on its (ignored) values; a new key with invalid values writes nothing.
  // The happy path (open form, valid values) goes straight to `createOrGet`, which returns the stored draft of
  // a replayed key anyway; the key is looked up first only before answering 409 or 422, so a replay gets 200.
  const createDraft = Effect.fnUntraced(function*(token: string, input: CreateDraftInput) {
    const schema = yield* resolve(token)
    const replay = submissions.findByKey(schema.id, input.idempotency_key)
    if (!acceptsSubmissions(schema, yield* Clock.currentTimeMillis)) {
      const existing = yield* replay
      if (Option.isSome(existing)) return { submission: existing.value, created: false }
      return yield* new FormClosed({})
    }
    const values = pickSchemaValues(schema.fields, input.values ?? emptyValues())
    const check = yield* validate(schema, rules(schema).relaxed, values)
    if (check.errors !== undefined) {
      const existing = yield* replay
      if (Option.isSome(existing)) return { submission: existing.value, created: false }
      return yield* new ValidationFailed({ fields: check.errors })
    }
    // A racing create with the same key (or a replay) is returned as it is stored.
    return yield* submissions.createOrGet({
      schema_id: schema.id,
      idempotency_key: input.idempotency_key,
      event_id: schema.event?.id ?? null,
      subject_id: null,
      values
    })
  })

  // token → submission (404) → draft (409) → open (409 FORM_CLOSED) → values (422) → save. The happy path
  // (open form, valid values) is the conditional UPDATE alone: its miss answers 404 or 409 (`Submissions.save`).
  // Before answering FORM_CLOSED or 422, the submission is read so that 404 and 409 still come first.
  const save = Effect.fnUntraced(function*(token: string, submissionId: string, body: Values) {
    const schema = yield* resolve(token)
    const existingDraft = Effect.gen(function*() {
      const submission = yield* findSubmission(schema, submissionId)
      if (!isDraft(submission)) return yield* new AlreadySubmitted({})
    })
    if (!acceptsSubmissions(schema, yield* Clock.currentTimeMillis)) {
      yield* existingDraft
      return yield* new FormClosed({})
    }
    const values = pickSchemaValues(schema.fields, body)
    const check = yield* validate(schema, rules(schema).relaxed, values)
    if (check.errors !== undefined) {
      yield* existingDraft
      return yield* new ValidationFailed({ fields: check.errors })
    }
    return yield* submissions.save(schema.id, submissionId, values)
  })

  const submitPipeline = submitDraft({ submissions, limiter, config, rules, validate })

  const submit = Effect.fnUntraced(function*(
    token: string,
    submissionId: string,
    body: Values,
    clientIp: string
  ) {
    const schema = yield* resolve(token)
    const submission = yield* findSubmission(schema, submissionId)
    return yield* submitPipeline(schema, submission, body, clientIp)
  })

  const timeSlots = Effect.fnUntraced(function*(token: string) {
    const schema = yield* resolve(token)
    if (schema.type !== "volunteer") return yield* new TimeSlotsNotAvailable({})
    if (schema.event === null) return []
    const tree = yield* registration.eventTree(schema.event.id)
    const eventIds = festivalEventIds(schema.event.id, tree)
    if (eventIds.length === 0) return []
    return toTimeSlots(yield* registration.timeSlots(eventIds), tree)
  })

  // The event and its direct children, as the contract states for sections.
  const sections = Effect.fnUntraced(function*(token: string) {
    const schema = yield* resolve(token)
    if (schema.event === null) return []
    const tree = yield* registration.eventTree(schema.event.id)
    if (tree.length === 0) return []
    return registrationSections(yield* registration.sections(tree.map((event) => event.id)))
  })

  return PublicForms.of({ getForm, createDraft, save, submit, timeSlots, sections })
})

/** Needs the six ports' services (not Outbox: events go through `Submissions.submit`) and FormsConfig. */
export const PublicFormsLayer = Layer.effect(PublicForms, makePublicForms)
