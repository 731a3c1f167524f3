/** OrganiserForms in memory, over the organiser state of `InMemoryOrganiser` (its events and audit log). */
import { Effect, Layer, Option } from "effect"
import { FormNotFound } from "../../../forms/errors.js"
import type { AuditRecord } from "../../../organiser/catalog/CatalogModel.js"
import { ReferenceInvalid } from "../../../organiser/catalog/errors.js"
import { OrganiserAccess } from "../../../organiser/catalog/OrganiserAccess.js"
import { OrganiserCatalog } from "../../../organiser/catalog/OrganiserCatalog.js"
import { RevisionConflict } from "../../../organiser/forms/errors.js"
import type { AdminForm, AdminFormSummary, ExpectedRevision } from "../../../organiser/forms/FormModel.js"
import { OrganiserForms } from "../../../organiser/forms/OrganiserForms.js"
import { OrganiserArtists } from "../../../organiser/OrganiserArtists.js"
import { portalOnlyFormType } from "../../../publicForms/resolvePublicForm.js"
import type { CreatedKey } from "../../../shared/paging.js"
import { InMemoryStore } from "../../InMemoryStore.js"
import { newestFirst, paged } from "../../paging.js"
import { makeInMemoryOrganiser } from "../InMemoryOrganiser.js"
import { auditTo, idSource, makeOrganiserState, type OrganiserState } from "../OrganiserState.js"

/** Ids unique in this process, whatever the number of states. */
const newId = idSource("a000")

const summary = (form: AdminForm): AdminFormSummary => ({
  id: form.id,
  name: form.name,
  type: form.type,
  status: form.status,
  event_id: form.event_id,
  revision: form.revision,
  opens_at: form.opens_at,
  closes_at: form.closes_at,
  counts: { drafts: 0, submitted: 0 },
  created_at: form.created_at
})

const holds = (expected: ExpectedRevision, revision: number) => expected === "any" || expected === revision

export const makeInMemoryOrganiserForms = (state: OrganiserState, forms = new Map<string, AdminForm>()) => {
  const audit = auditTo(state, newId)
  const own = (org: string, id: string) => {
    const form = forms.get(id)
    return form !== undefined && form.organisation_id === org ? form : undefined
  }
  const eventOk = (org: string, eventId: string | null) => {
    if (eventId === null) return true
    const event = state.events.get(eventId)
    return event !== undefined && event.organisation_id === org
  }
  const advanceOf = (org: string) => [...forms.values()].find((f) => f.organisation_id === org && f.type === portalOnlyFormType)?.id
  const entry = (action: string, id: string): AuditRecord => ({ action, resource_type: "form", resource_id: id })

  return OrganiserForms.of({
    listForms: (org, page) =>
      Effect.sync(() => paged([...forms.values()].filter((f) => f.organisation_id === org).map(summary), (f): CreatedKey => f, newestFirst, page)),
    findForm: (org, id) => Effect.sync(() => Option.fromUndefinedOr(own(org, id))),
    advanceFormOf: (org) => Effect.sync(() => Option.fromUndefinedOr(advanceOf(org))),
    createForm: (actor, input, at) =>
      Effect.suspend(() => {
        const org = actor.organisation_id
        if (!eventOk(org, input.definition.event_id)) return Effect.fail(new ReferenceInvalid({ field: "event_id" }))
        if (input.definition.type === portalOnlyFormType && advanceOf(org) !== undefined) {
          return Effect.fail(new ReferenceInvalid({ field: "type" }))
        }
        const form: AdminForm = {
          ...input.definition,
          id: newId(),
          organisation_id: org,
          revision: 1,
          public_token: input.public_token,
          previous_public_token: null,
          token_rotated_at: null,
          created_at: at,
          updated_at: at
        }
        forms.set(form.id, form)
        audit(actor, at, entry("form.created", form.id))
        return Effect.succeed(form)
      }),
    replaceForm: (actor, id, definition, expected, at) =>
      Effect.suspend((): Effect.Effect<AdminForm, FormNotFound | RevisionConflict | ReferenceInvalid> => {
        const org = actor.organisation_id
        const form = own(org, id)
        if (form === undefined) return Effect.fail(new FormNotFound({}))
        if (!holds(expected, form.revision)) return Effect.fail(new RevisionConflict())
        if (!eventOk(org, definition.event_id)) return Effect.fail(new ReferenceInvalid({ field: "event_id" }))
        const advance = advanceOf(org)
        if (definition.type === portalOnlyFormType && advance !== undefined && advance !== id) {
          return Effect.fail(new ReferenceInvalid({ field: "type" }))
        }
        // A definition replaces the whole: messages and a cancel_until_hours it leaves out are gone.
        const { messages: _dropped, cancel_until_hours: _default, ...kept } = form
        const next: AdminForm = { ...kept, ...definition, revision: form.revision + 1, updated_at: at }
        forms.set(id, next)
        audit(actor, at, entry("form.updated", id))
        return Effect.succeed(next)
      }),
    patchForm: (actor, id, patch, expected, at) =>
      Effect.suspend((): Effect.Effect<AdminForm, FormNotFound | RevisionConflict> => {
        const form = own(actor.organisation_id, id)
        if (form === undefined) return Effect.fail(new FormNotFound({}))
        if (!holds(expected, form.revision)) return Effect.fail(new RevisionConflict())
        const next: AdminForm = { ...form, ...patch, revision: form.revision + 1, updated_at: at }
        forms.set(id, next)
        audit(actor, at, entry("form.updated", id))
        return Effect.succeed(next)
      }),
    deleteForm: (actor, id, at) =>
      Effect.suspend(() => {
        if (own(actor.organisation_id, id) === undefined) return Effect.fail(new FormNotFound({}))
        forms.delete(id)
        audit(actor, at, entry("form.deleted", id))
        return Effect.void
      }),
    rotateFormToken: (actor, id, token, at) =>
      Effect.suspend(() => {
        const form = actor === undefined ? forms.get(id) : own(actor.organisation_id, id)
        if (form === undefined) return Effect.fail(new FormNotFound({}))
        const next: AdminForm = { ...form, previous_public_token: form.public_token, public_token: token, token_rotated_at: at }
        forms.set(id, next)
        audit(actor ?? { organisation_id: form.organisation_id, api_key_id: null }, at, entry("form.token_rotated", id))
        return Effect.succeed(next)
      }),
    newId
  })
}

/** The organiser ports and OrganiserForms over one fresh state per build (over an `InMemoryStore` in context as `InMemoryOrganiser`). */
const inMemoryOrganiserFormsLayer: Layer.Layer<OrganiserAccess | OrganiserCatalog | OrganiserArtists | OrganiserForms> = Layer.unwrap(
  Effect.gen(function*() {
    const shared = Option.getOrUndefined(Option.map(yield* Effect.serviceOption(InMemoryStore), (store) => store.data))
    const state = makeOrganiserState(shared)
    const { access, catalog, artists } = makeInMemoryOrganiser(state, shared)
    return Layer.mergeAll(
      Layer.succeed(OrganiserAccess, access),
      Layer.succeed(OrganiserCatalog, catalog),
      Layer.succeed(OrganiserArtists, artists),
      Layer.succeed(OrganiserForms, makeInMemoryOrganiserForms(state))
    )
  })
)

/** The layer of `InMemoryOrganiserForms`: `InMemoryOrganiserForms.layer` (with the organiser ports it builds on). */
export const InMemoryOrganiserForms = { layer: inMemoryOrganiserFormsLayer } as const
