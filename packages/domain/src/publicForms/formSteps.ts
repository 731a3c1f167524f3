/** The steps every public-form use case shares: the token resolver, the submission lookup, compiled rules, `unique`. */
import { Clock, Effect, Option } from "effect"
import type { Submission } from "./Submission.js"
import { answerFiles, hasFileField } from "../files/answerFiles.js"
import { checkFileChoices, fileChoicesOf } from "../files/fileChoices.js"
import { FileUploads } from "../files/FileUploads.js"
import { FormNotFound } from "../forms/errors.js"
import type { FormSchema } from "../forms/FormSchema.js"
import { FormsConfig } from "../FormsConfig.js"
import { atMostRounds } from "../shared/rounds.js"
import type { FieldErrors } from "../rules/FieldErrors.js"
import { makeRulesCache } from "../rules/RulesCache.js"
import type { SlotChoice } from "../rules/SlotChoice.js"
import type { CompiledRules, ValidationResult } from "../rules/Validator.js"
import { type ChosenSlot, RegistrationData } from "../shifts/RegistrationData.js"
import { checkSlotChoices, chosenSlotIds, type FullCheck, mergeFieldErrors } from "../shifts/slotChoices.js"
import { SubmissionNotFound } from "./errors.js"
import { FormSchemas } from "./FormSchemas.js"
import { resolvePublicForm } from "./resolvePublicForm.js"
import { Submissions } from "./Submissions.js"
import { withUniqueErrors } from "./uniqueErrors.js"
import { UniqueValues } from "./UniqueValues.js"

/** A form changed between validation and write costs one round; this many rounds and we give up. */
export const maxRevisionRounds = 20
export const revisionRounds = atMostRounds(maxRevisionRounds)

/** How `withTaken` checks `unique` and the slots: for a save (the default), a submit's body, or a submit's merged values. */
export interface TakenOptions {
  /** The submit's atomic claim answers a taken value when no other rule fails (`UniqueTaken`): no lookup then. */
  readonly claimDecides?: boolean
  /** At a submit: the slots are read (with `full`) only when another rule failed. Defaults to `claimDecides`. */
  readonly atSubmit?: boolean
}

export const makeFormSteps = Effect.gen(function*() {
  const schemas = yield* FormSchemas
  const submissions = yield* Submissions
  const uniqueValues = yield* UniqueValues
  const registration = yield* RegistrationData
  const config = yield* FormsConfig
  const uploads = yield* FileUploads
  const cache = makeRulesCache()

  /** The shared resolver of all six routes: 404 unless the token opens a published public form. */
  const resolve = Effect.fnUntraced(function*(token: string) {
    const found = yield* schemas.findByToken(token)
    const now = yield* Clock.currentTimeMillis
    const schema = resolvePublicForm(Option.getOrUndefined(found), token, now, config.tokenGraceSeconds)
    if (schema === undefined) return yield* new FormNotFound({})
    return schema
  })

  /** Unknown id and an id of another schema give the same answer. */
  const findSubmission = Effect.fnUntraced(function*(schema: FormSchema, id: string) {
    const found = yield* submissions.findInSchema(schema.id, id)
    if (Option.isNone(found)) return yield* new SubmissionNotFound({})
    return found.value
  })

  const rules = (schema: FormSchema): CompiledRules => cache.get(schema.fields, schema.sections)

  /**
   * The schema as stored now, after a write found its revision moved (CONTRACT §12: a change applies at
   * once). A form deleted meanwhile answers as an unknown token.
   */
  const fresh = Effect.fnUntraced(function*(schema: FormSchema) {
    const found = yield* schemas.findCurrent(schema.id)
    if (Option.isNone(found)) return yield* new FormNotFound({})
    return found.value
  })

  /**
   * A validator's errors with `unique` added: its candidates are looked up among submitted values only when
   * a candidate exists and, with `claimDecides`, only when another rule failed too (when nothing else fails
   * the submit's atomic claim answers a taken value, as `UniqueTaken`, with the same 422).
   * Then the `time_slots` rules (CONTRACT §15) on the chosen slots as stored: on a save always; at a submit
   * (`atSubmit`, with `full` on the holders read) only when another rule failed, since otherwise the
   * submit's atomic step takes the places and decides (`slotDecision`).
   */
  const withTaken = Effect.fnUntraced(function*(schema: FormSchema, result: ValidationResult, options: TakenOptions = {}) {
    const claimDecides = options.claimDecides ?? false
    const atSubmit = options.atSubmit ?? claimDecides
    const skip = result.unique.length === 0 || (claimDecides && result.errors === undefined)
    const taken = skip ? [] : yield* uniqueValues.taken(schema.id, result.unique)
    const errors = withUniqueErrors(result.errors, taken)
    const choices = result.slots ?? []
    if (choices.length === 0 || (atSubmit && errors === undefined)) return errors
    return yield* withSlotErrors(schema, errors, choices, atSubmit ? "read" : "none")
  })

  /** `errors` with the slot rules' errors of `choices` added, read from the slots as stored now. */
  const withSlotErrors = Effect.fnUntraced(function*(
    schema: FormSchema,
    errors: FieldErrors | undefined,
    choices: ReadonlyArray<SlotChoice>,
    full: FullCheck
  ) {
    const slots = yield* registration.chosenSlots(chosenSlotIds(choices))
    const slotErrors = checkSlotChoices(choices, slots, schema.event?.id ?? null, full, yield* Clock.currentTimeMillis)
    return mergeFieldErrors(schema.fields.map((field) => field.slug), errors, slotErrors)
  })

  /**
   * `errors` with the file rules that need the stored uploads (`in`, the counts) added for the file fields of
   * `values`: the uploads are read only when a file field names ids.
   */
  const withFileErrors = Effect.fnUntraced(function*(
    schema: FormSchema,
    submissionId: string,
    values: Readonly<Record<string, unknown>>,
    errors: FieldErrors | undefined
  ) {
    const choices = fileChoicesOf(schema, values, errors)
    if (choices.length === 0) return errors
    const fileErrors = checkFileChoices(choices, yield* uploads.storedOf(submissionId))
    return mergeFieldErrors(schema.fields.map((field) => field.slug), errors, fileErrors)
  })

  /** The places a submit at `now` takes for `choices`, and the domain's decision on them once taken. */
  const slotDecision = (schema: FormSchema, choices: ReadonlyArray<SlotChoice> | undefined, now: number) =>
    choices === undefined || choices.length === 0 ? undefined : {
      slot_ids: chosenSlotIds(choices),
      decide: (held: ReadonlyArray<ChosenSlot>) => checkSlotChoices(choices, held, schema.event?.id ?? null, "taken", now)
    }


  /**
   * Before refusing values, whether the rules that refused them are still the form's: the fresh schema when
   * its revision moved (a cached read may lag a change by moments), undefined when they are current.
   */
  const movedOn = Effect.fnUntraced(function*(schema: FormSchema) {
    const current = yield* fresh(schema)
    return current.revision === schema.revision ? undefined : current
  })

  /** The submission with its places when the form has a `time_slots` field (CONTRACT §22); a draft holds none. */
  const withPlaces = Effect.fnUntraced(function*(schema: FormSchema, submission: Submission) {
    if (!schema.fields.some((field) => field.type === "time_slots")) return submission
    const places = submission.status === "draft" ? [] : yield* registration.placesOf(submission.id)
    return { ...submission, places }
  })

  /** The submission with its `files` when the form has a file field (CONTRACT §23). */
  const withFiles = Effect.fnUntraced(function*(schema: FormSchema, submission: Submission) {
    if (!hasFileField(schema)) return submission
    return { ...submission, files: answerFiles(schema, submission, yield* uploads.storedOf(submission.id)) }
  })

  /** The parts an answer adds to a stored submission: its places and its files. */
  const withAnswerParts = (schema: FormSchema, submission: Submission) =>
    Effect.flatMap(withPlaces(schema, submission), (placed) => withFiles(schema, placed))

  return {
    resolve,
    findSubmission,
    rules,
    withTaken,
    withSlotErrors,
    slotDecision,
    fresh,
    movedOn,
    withPlaces,
    withFiles,
    withAnswerParts,
    withFileErrors
  } as const
})

export type FormSteps = Effect.Success<typeof makeFormSteps>
