/** The PublicForms service: the use cases of CONTRACT §3 over the ports, one maker per use case. */
import { Clock, Effect, Layer } from "effect"
import { type AnswerLanguage, chooseAnswerLanguage } from "../languages/AnswerLanguage.js"
import { RegistrationData } from "../shifts/RegistrationData.js"
import { festivalEventIds, toTimeSlots } from "../shifts/timeSlots.js"
import { makeCreateDraft } from "./createDraft.js"
import { TimeSlotsNotAvailable } from "./errors.js"
import { makeFormSteps } from "./formSteps.js"
import { PublicForms } from "./PublicForms.js"
import { registrationSections } from "./registrationSections.js"
import { acceptsSubmissions } from "./resolvePublicForm.js"
import { makeSaveDraft } from "./saveDraft.js"
import { makeSubmitDraft } from "./submitDraft.js"

export const makePublicForms = Effect.gen(function*() {
  const steps = yield* makeFormSteps
  const registration = yield* RegistrationData

  const getForm = Effect.fn("PublicForms.getForm")(function*(token: string) {
    const schema = yield* steps.resolve(token)
    const now = yield* Clock.currentTimeMillis
    return { schema, accepts_submissions: acceptsSubmissions(schema, now) }
  })

  const timeSlots = Effect.fn("PublicForms.timeSlots")(function*(token: string, language?: AnswerLanguage) {
    const schema = yield* steps.resolve(token)
    yield* chooseAnswerLanguage(schema, language)
    if (schema.type !== "volunteer") return yield* new TimeSlotsNotAvailable({})
    if (schema.event === null) return []
    const tree = yield* registration.eventTree(schema.event.id)
    const eventIds = festivalEventIds(schema.event.id, tree)
    if (eventIds.length === 0) return []
    return toTimeSlots(yield* registration.timeSlots(eventIds), tree)
  })

  // The event and its direct children, as the contract states for sections.
  const sections = Effect.fn("PublicForms.sections")(function*(token: string, language?: AnswerLanguage) {
    const schema = yield* steps.resolve(token)
    yield* chooseAnswerLanguage(schema, language)
    if (schema.event === null) return []
    const tree = yield* registration.eventTree(schema.event.id)
    if (tree.length === 0) return []
    return registrationSections(yield* registration.sections(tree.map((event) => event.id)))
  })

  return PublicForms.of({
    getForm,
    createDraft: yield* makeCreateDraft(steps),
    save: yield* makeSaveDraft(steps),
    submit: yield* makeSubmitDraft(steps),
    timeSlots,
    sections
  })
})

/** Needs FormSchemas, Submissions, UniqueValues, RateLimiter, RegistrationData and FormsConfig. */
const publicFormsLayer = Layer.effect(PublicForms, makePublicForms)

/** The layer of `PublicFormsLive`: `PublicFormsLive.layer`. */
export const PublicFormsLive = { layer: publicFormsLayer } as const
