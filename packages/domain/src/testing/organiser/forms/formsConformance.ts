/**
 * The conformance suite of OrganiserForms: every adapter (in memory, PostgreSQL) must pass it unchanged.
 * Each test makes organisations of its own, so tests sharing a store never meet.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Exit, type Layer, Option } from "effect"
import { type FormField, normalizeField } from "../../../forms/FormField.js"
import { seedField } from "../../../memory/Seed.js"
import { OrganiserAccess } from "../../../organiser/catalog/OrganiserAccess.js"
import { OrganiserCatalog } from "../../../organiser/catalog/OrganiserCatalog.js"
import type { FormDefinition } from "../../../organiser/forms/FormModel.js"
import { OrganiserForms } from "../../../organiser/forms/OrganiserForms.js"
import { OrganiserArtists } from "../../../organiser/OrganiserArtists.js"
import { failureTag, first, newActor, t0 } from "../organiserTestSupport.js"

const field = (id: string, slug: string, over: Partial<FormField> = {}): FormField =>
  normalizeField(seedField({ id, slug, position: 0, ...over }))

export const formDefinition = (over: Partial<FormDefinition> = {}): FormDefinition => ({
  name: "Volunteers",
  type: "volunteer",
  event_id: null,
  status: "draft",
  opens_at: null,
  closes_at: null,
  tags: ["crew"],
  sections: [{ id: "s1", name: "About you", position: 1 }],
  fields: [
    field("f1", "email", { type: "email", section_id: "s1", is_required: true, position: 1 }),
    field("f2", "shirt", { options: [{ value: "M", label: "Medium", tags: ["m"] }], validation_rules: { max: 1 }, position: 2 })
  ],
  ...over
})

const token = () => `tok-${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`

type Ports = OrganiserAccess | OrganiserCatalog | OrganiserArtists | OrganiserForms

export const formsConformance = (
  name: string,
  makeLayer: () => Layer.Layer<Ports, unknown>,
  options: { readonly timeout?: number } = {}
): void => {
  describe(name, () => {
    layer(makeLayer(), { timeout: options.timeout ?? 60_000, excludeTestServices: true })("OrganiserForms", (it) => {
      it.effect("conditions and help (CONTRACT §18) are stored and read back as given, null members left out", () =>
        Effect.gen(function*() {
          const forms = yield* OrganiserForms
          const a = yield* newActor
          const condition = { and: [{ "==": [{ var: "email" }, null] }, { in: [{ var: ["shirt"] }, ["M", 1, true, null, []]] }] }
          const definition = formDefinition({
            sections: [{ id: "s1", name: "About you", position: 1, visible_if: { "!": { var: "shirt" } } }],
            fields: [
              field("f1", "email", { type: "email", section_id: "s1", position: 1, help: "We write to you here." }),
              field("f2", "shirt", { position: 2, visible_if: { "!==": [{ var: "email" }, ""] } }),
              field("f3", "size", { type: "hidden", position: 3, visible_if: condition, help: "" })
            ]
          })
          const form = yield* forms.createForm(a, { definition, public_token: token() }, t0)
          expect({ sections: form.sections, fields: form.fields }).toEqual({ sections: definition.sections, fields: definition.fields })
          const found = yield* forms.findForm(a.organisation_id, form.id)
          expect(Option.map(found, (f) => ({ sections: f.sections, fields: f.fields }))).toEqual(
            Option.some({ sections: definition.sections, fields: definition.fields })
          )
          expect(Option.map(found, (f) => "visible_if" in (f.fields[0] as object))).toEqual(Option.some(false))
        }))

      it.effect("languages and translations (CONTRACT §19) are stored, replaced and read back as given; a form without them has none", () =>
        Effect.gen(function*() {
          const forms = yield* OrganiserForms
          const a = yield* newActor
          const translations = {
            nl: { name: "Vrijwilligers", sections: { s1: { name: "Over jou" } }, fields: { shirt: { label: "Shirt", options: { M: "Middel" } } } },
            "de-CH": { fields: { email: { label: "E-Mail", help: "Deine Adresse" } }, messages: { confirmation: { subject: "Danke" } } }
          }
          const definition = formDefinition({ languages: ["en", "nl", "de-CH"], translations })
          const form = yield* forms.createForm(a, { definition, public_token: token() }, t0)
          expect([form.languages, form.translations]).toEqual([["en", "nl", "de-CH"], translations])
          const found = yield* forms.findForm(a.organisation_id, form.id)
          expect(Option.map(found, (f) => [f.languages, f.translations])).toEqual(Option.some([["en", "nl", "de-CH"], translations]))
          const next = formDefinition({ languages: ["nl", "en"], translations: { en: { name: "Volunteers" } } })
          const replaced = yield* forms.replaceForm(a, form.id, next, 1, t0 + 1)
          expect([replaced.languages, replaced.translations]).toEqual([["nl", "en"], { en: { name: "Volunteers" } }])
          const plain = yield* forms.createForm(a, { definition: formDefinition(), public_token: token() }, t0)
          expect(["languages" in plain, "translations" in plain]).toEqual([false, false])
        }))

      it.effect("a created form is found by its organisation only, at revision 1, with every part as given", () =>
        Effect.gen(function*() {
          const forms = yield* OrganiserForms
          const catalog = yield* OrganiserCatalog
          const a = yield* newActor
          const b = yield* newActor
          const event = yield* catalog.createEvent(a, { name: "Fest", parent_event_id: null }, t0)
          const definition = formDefinition({ event_id: event.id, opens_at: t0, closes_at: t0 + 1000 })
          const publicToken = token()
          const form = yield* forms.createForm(a, { definition, public_token: publicToken }, t0)
          expect(form).toEqual({
            ...definition,
            id: form.id,
            organisation_id: a.organisation_id,
            revision: 1,
            public_token: publicToken,
            previous_public_token: null,
            token_rotated_at: null,
            created_at: t0,
            updated_at: t0
          })
          expect(yield* forms.findForm(a.organisation_id, form.id)).toEqual(Option.some(form))
          expect(yield* forms.findForm(b.organisation_id, form.id)).toEqual(Option.none())
          expect(yield* forms.findForm(a.organisation_id, "no-such-form")).toEqual(Option.none())
          const listed = yield* forms.listForms(a.organisation_id, first())
          expect(listed.items).toEqual([{
            id: form.id,
            name: "Volunteers",
            type: "volunteer",
            status: "draft",
            event_id: event.id,
            revision: 1,
            opens_at: t0,
            closes_at: t0 + 1000,
            counts: { drafts: 0, submitted: 0 },
            created_at: t0
          }])
          expect((yield* forms.listForms(b.organisation_id, first())).items).toEqual([])
          expect(yield* failureTag(forms.replaceForm(b, form.id, definition, "any", t0))).toBe("FormNotFound")
          expect(yield* failureTag(forms.patchForm(b, form.id, { name: "x" }, "any", t0))).toBe("FormNotFound")
          expect(yield* failureTag(forms.deleteForm(b, form.id, t0))).toBe("FormNotFound")
          expect(yield* failureTag(forms.rotateFormToken(b, form.id, token(), t0))).toBe("FormNotFound")
          const audit = yield* catalog.listAudit(a.organisation_id, first())
          expect(audit.items.map((e) => [e.action, e.resource_id])).toContainEqual(["form.created", form.id])
        }))

      it.effect("an event of another organisation, or a second artist_advance form, is a bad reference", () =>
        Effect.gen(function*() {
          const forms = yield* OrganiserForms
          const catalog = yield* OrganiserCatalog
          const a = yield* newActor
          const b = yield* newActor
          const foreign = yield* catalog.createEvent(b, { name: "Other", parent_event_id: null }, t0)
          const refused = yield* Effect.flip(forms.createForm(a, { definition: formDefinition({ event_id: foreign.id }), public_token: token() }, t0))
          expect(refused).toMatchObject({ _tag: "ReferenceInvalid", field: "event_id" })
          const advance = formDefinition({ type: "artist_advance", fields: [] })
          const one = yield* forms.createForm(a, { definition: advance, public_token: null }, t0)
          expect(yield* forms.advanceFormOf(a.organisation_id)).toEqual(Option.some(one.id))
          const second = yield* Effect.flip(forms.createForm(a, { definition: advance, public_token: null }, t0))
          expect(second).toMatchObject({ _tag: "ReferenceInvalid", field: "type" })
          const other = yield* forms.createForm(a, { definition: formDefinition(), public_token: token() }, t0)
          const turned = yield* Effect.flip(forms.replaceForm(a, other.id, advance, "any", t0))
          expect(turned).toMatchObject({ _tag: "ReferenceInvalid", field: "type" })
          // The advance form itself may be replaced as an advance form.
          expect((yield* forms.replaceForm(a, one.id, advance, 1, t0 + 1)).revision).toBe(2)
          expect((yield* forms.listForms(a.organisation_id, first())).items).toHaveLength(2)
        }))

      it.effect("a replace keeps parts by id, drops the missing ones, adds 1 to the revision; a stale revision conflicts", () =>
        Effect.gen(function*() {
          const forms = yield* OrganiserForms
          const a = yield* newActor
          const created = yield* forms.createForm(a, { definition: formDefinition(), public_token: token() }, t0)
          // Another form may use the same part ids: they are scoped to their form.
          yield* forms.createForm(a, { definition: formDefinition(), public_token: token() }, t0)
          const next = formDefinition({
            name: "Crew",
            sections: [{ id: "s1", name: "You", position: 1 }, { id: "s2", name: "Shirt", position: 2 }],
            fields: [field("f2", "size", { section_id: "s2", validation_rules: { regex: "^[SML]$" } }), field("f3", "phone", { type: "phone" })]
          })
          const replaced = yield* forms.replaceForm(a, created.id, next, 1, t0 + 10)
          expect(replaced).toMatchObject({ name: "Crew", revision: 2, created_at: t0, updated_at: t0 + 10 })
          const stored = Option.getOrThrow(yield* forms.findForm(a.organisation_id, created.id))
          expect(stored.sections).toEqual(next.sections)
          expect([...stored.fields].sort((x, y) => x.id.localeCompare(y.id))).toEqual(next.fields)
          expect(stored.public_token).toBe(created.public_token)
          expect(yield* failureTag(forms.replaceForm(a, created.id, next, 1, t0))).toBe("RevisionConflict")
          expect((yield* forms.replaceForm(a, created.id, formDefinition(), "any", t0 + 20)).revision).toBe(3)
        }))

      it.effect("a patch changes the members given and the revision; a rotation moves the token, not the revision", () =>
        Effect.gen(function*() {
          const forms = yield* OrganiserForms
          const catalog = yield* OrganiserCatalog
          const a = yield* newActor
          const created = yield* forms.createForm(a, { definition: formDefinition(), public_token: token() }, t0)
          const patched = yield* forms.patchForm(a, created.id, { status: "published", closes_at: t0 + 5, tags: [] }, 1, t0 + 1)
          expect(patched).toMatchObject({ status: "published", closes_at: t0 + 5, tags: [], name: "Volunteers", revision: 2 })
          expect(yield* failureTag(forms.patchForm(a, created.id, { name: "x" }, 1, t0))).toBe("RevisionConflict")
          const fresh = token()
          const rotated = yield* forms.rotateFormToken(a, created.id, fresh, t0 + 2)
          expect(rotated).toMatchObject({
            public_token: fresh,
            previous_public_token: created.public_token,
            token_rotated_at: t0 + 2,
            revision: 2
          })
          // The CLI's rotation: no actor, the form found by id alone.
          const again = yield* forms.rotateFormToken(undefined, created.id, token(), t0 + 3)
          expect(again.previous_public_token).toBe(fresh)
          yield* forms.deleteForm(a, created.id, t0 + 4)
          expect(yield* forms.findForm(a.organisation_id, created.id)).toEqual(Option.none())
          const actions = (yield* catalog.listAudit(a.organisation_id, first())).items.map((e) => e.action)
          expect(actions).toEqual(["form.deleted", "form.token_rotated", "form.token_rotated", "form.updated", "form.created"])
        }))

      it.effect("two replaces of one revision at once: exactly one wins, the other conflicts", () =>
        Effect.gen(function*() {
          const forms = yield* OrganiserForms
          const a = yield* newActor
          const created = yield* forms.createForm(a, { definition: formDefinition(), public_token: token() }, t0)
          const exits = yield* Effect.all(
            [1, 2].map((n) => Effect.exit(forms.replaceForm(a, created.id, formDefinition({ name: `Writer ${n}` }), 1, t0 + n))),
            { concurrency: "unbounded" }
          )
          expect(exits.filter(Exit.isSuccess)).toHaveLength(1)
          const failed = exits.filter(Exit.isFailure)
          expect(failed).toHaveLength(1)
          expect(yield* failureTag(Effect.flatten(Effect.succeed(failed[0] ?? Exit.void)))).toBe("RevisionConflict")
          expect(Option.getOrThrow(yield* forms.findForm(a.organisation_id, created.id)).revision).toBe(2)
        }))

      it.effect("lists are newest first and page without repeats", () =>
        Effect.gen(function*() {
          const forms = yield* OrganiserForms
          const a = yield* newActor
          const ids: Array<string> = []
          for (let i = 0; i < 3; i++) {
            ids.push((yield* forms.createForm(a, { definition: formDefinition({ name: `F${i}` }), public_token: token() }, t0 + i)).id)
          }
          const page1 = yield* forms.listForms(a.organisation_id, first(2))
          expect(page1.items.map((f) => f.id)).toEqual([ids[2], ids[1]])
          expect(page1.more).toBe(true)
          const last = page1.items[1]
          if (last === undefined) return
          const page2 = yield* forms.listForms(a.organisation_id, { limit: 2, after: { created_at: last.created_at, id: last.id } })
          expect(page2.items.map((f) => f.id)).toEqual([ids[0]])
          expect(page2.more).toBe(false)
        }))
    })
  })
}
