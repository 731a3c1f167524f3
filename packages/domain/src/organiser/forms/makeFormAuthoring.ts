/** The form-authoring use cases over the OrganiserForms and OrganiserCatalog ports. */
import { FormsConfig } from "../../FormsConfig.js"
import { Clock, Effect, Layer, Option, Result } from "effect"
import { FormNotFound } from "../../forms/errors.js"
import { portalOnlyFormType } from "../../publicForms/resolvePublicForm.js"
import type { Body } from "../../rules/bodyChecks.js"
import { ValidationFailed } from "../../rules/errors.js"
import type { FieldError, FieldErrors } from "../../rules/FieldErrors.js"
import type { Actor } from "../../shared/Actor.js"
import type { ReferenceInvalid } from "../catalog/errors.js"
import { OrganiserCatalog } from "../catalog/OrganiserCatalog.js"
import { PreconditionRequired, RevisionConflict } from "./errors.js"
import { FormAuthoring } from "./FormAuthoring.js"
import { definitionInput, formPatchInput, withIds } from "./formInput.js"
import type { ExpectedRevision, FormDefinition } from "./FormModel.js"
import { preconditionOf } from "./ifMatch.js"
import { OrganiserForms } from "./OrganiserForms.js"

const eventError: FieldError = { rule: "in", message: "This member names no event of the organisation." }
const advanceError: FieldError = { rule: "unique", message: "The organisation has an artist_advance form already." }

const invalid = (fields: FieldErrors) => new ValidationFailed({ fields })
const referenceError = (error: ReferenceInvalid) =>
  invalid({ [error.field]: [error.field === "type" ? advanceError : eventError] })

export const makeFormAuthoring = Effect.gen(function*() {
  const forms = yield* OrganiserForms
  const catalog = yield* OrganiserCatalog
  // FILE_MAX_BYTES caps a file field's `max_bytes` (422 `max` at the member above it).
  const { fileMaxBytes } = yield* FormsConfig

  const requireForm = (actor: Actor, id: string) =>
    forms.findForm(actor.organisation_id, id).pipe(Effect.flatMap(Effect.fromOption(() => new FormNotFound({}))))

  /**
   * The body read and checked, with the checks that need the store (the event, the one advance form)
   * reported beside the others: every problem in one answer. `self`: the form being replaced.
   */
  const checkedDefinition = Effect.fnUntraced(function*(actor: Actor, body: Body, self: string | undefined) {
    const parsed = definitionInput(body, { fileMaxBytes })
    const errors: Record<string, ReadonlyArray<FieldError>> = Object.create(null) as Record<string, ReadonlyArray<FieldError>>
    if (Result.isFailure(parsed)) Object.assign(errors, parsed.failure)
    const eventId = typeof body["event_id"] === "string" ? body["event_id"] : undefined
    if (eventId !== undefined && errors["event_id"] === undefined) {
      if (Option.isNone(yield* catalog.findEvent(actor.organisation_id, eventId))) errors["event_id"] = [eventError]
    }
    if (body["type"] === portalOnlyFormType && errors["type"] === undefined) {
      const advance = yield* forms.advanceFormOf(actor.organisation_id)
      if (Option.isSome(advance) && advance.value !== self) errors["type"] = [advanceError]
    }
    if (Result.isFailure(parsed) || Object.keys(errors).length > 0) return yield* invalid(errors)
    return withIds(parsed.success, forms.newId)
  })

  /** 412 unless `ifMatch` holds for the stored revision; what the write then expects. */
  const precondition = (ifMatch: string, revision: number) => {
    const expected = preconditionOf(ifMatch, revision)
    return expected === undefined ? Effect.fail(new RevisionConflict()) : Effect.succeed<ExpectedRevision>(expected)
  }

  return FormAuthoring.of({
    listForms: Effect.fn("FormAuthoring.listForms")(function*(actor, page) {
      return yield* forms.listForms(actor.organisation_id, page)
    }),
    getForm: Effect.fn("FormAuthoring.getForm")(function*(actor: Actor, id: string) {
      return yield* requireForm(actor, id)
    }),
    createForm: Effect.fn("FormAuthoring.createForm")(function*(actor: Actor, body: Body, token: string) {
      const definition: FormDefinition = yield* checkedDefinition(actor, body, undefined)
      const publicToken = definition.type === portalOnlyFormType ? null : token
      return yield* forms.createForm(actor, { definition, public_token: publicToken }, yield* Clock.currentTimeMillis).pipe(
        Effect.catchTag("ReferenceInvalid", (e) => Effect.fail(referenceError(e)))
      )
    }),
    replaceForm: Effect.fn("FormAuthoring.replaceForm")(
      function*(actor: Actor, id: string, body: Body, ifMatch: string | undefined) {
        const current = yield* requireForm(actor, id)
        if (ifMatch === undefined) return yield* new PreconditionRequired()
        const expected = yield* precondition(ifMatch, current.revision)
        const definition = yield* checkedDefinition(actor, body, id)
        return yield* forms.replaceForm(actor, id, definition, expected, yield* Clock.currentTimeMillis).pipe(
          Effect.catchTag("ReferenceInvalid", (e) => Effect.fail(referenceError(e)))
        )
      }
    ),
    patchForm: Effect.fn("FormAuthoring.patchForm")(
      function*(actor: Actor, id: string, body: Body, ifMatch: string | undefined) {
        const current = yield* requireForm(actor, id)
        const expected = ifMatch === undefined ? "any" : yield* precondition(ifMatch, current.revision)
        const patch = formPatchInput(body)
        if (Result.isFailure(patch)) return yield* invalid(patch.failure)
        const opensAt = patch.success.opens_at === undefined ? current.opens_at : patch.success.opens_at
        const closesAt = patch.success.closes_at === undefined ? current.closes_at : patch.success.closes_at
        if (opensAt !== null && closesAt !== null && opensAt >= closesAt) {
          return yield* invalid({ closes_at: [{ rule: "invalid", message: "closes_at must be after opens_at." }] })
        }
        return yield* forms.patchForm(actor, id, patch.success, expected, yield* Clock.currentTimeMillis)
      }
    ),
    deleteForm: Effect.fn("FormAuthoring.deleteForm")(function*(actor: Actor, id: string) {
      return yield* forms.deleteForm(actor, id, yield* Clock.currentTimeMillis)
    }),
    rotateToken: Effect.fn("FormAuthoring.rotateToken")(function*(actor: Actor | undefined, id: string, token: string) {
      return yield* forms.rotateFormToken(actor, id, token, yield* Clock.currentTimeMillis)
    })
  })
})

/** The form-authoring use cases; needs OrganiserForms and OrganiserCatalog. */
const formAuthoringLayer = Layer.effect(FormAuthoring, makeFormAuthoring)

/** The layer of `FormAuthoringLive`: `FormAuthoringLive.layer`. */
export const FormAuthoringLive = { layer: formAuthoringLayer } as const
