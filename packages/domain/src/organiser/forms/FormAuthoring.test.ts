import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { InMemoryOrganiserForms } from "../../memory/organiser/forms/InMemoryOrganiserForms.js"
import { newActor } from "../../testing/organiser/organiserTestSupport.js"
import { FormsConfig } from "../../FormsConfig.js"
import { FormAuthoring } from "./FormAuthoring.js"
import { FormAuthoringLive } from "./makeFormAuthoring.js"

const live = FormAuthoringLive.layer.pipe(Layer.provideMerge(InMemoryOrganiserForms.layer), Layer.provide(FormsConfig.layer({ fileMaxBytes: 1_000_000 })))
const token = "tok-0123456789abcdef-xyz"

const body = (over: Record<string, unknown> = {}) => ({
  name: "Volunteers",
  type: "volunteer",
  event_id: null,
  sections: [{ name: "About you" }],
  fields: [{ slug: "email", label: "Email", type: "email" }],
  ...over
})

const fieldsOf = (e: unknown) => (e as { fields: Record<string, ReadonlyArray<{ rule: string }>> }).fields
const rules = (e: unknown) => Object.fromEntries(Object.entries(fieldsOf(e)).map(([k, v]) => [k, v.map((x) => x.rule)]))

describe("FormAuthoring", () => {
  layer(live)((it) => {
    it.effect("create fills defaults and generates the ids left out; GET → PUT of the answer works unchanged", () =>
      Effect.gen(function*() {
        const authoring = yield* FormAuthoring
        const actor = yield* newActor
        const form = yield* authoring.createForm(actor, body(), token)
        expect(form).toMatchObject({ status: "draft", tags: [], opens_at: null, revision: 1, public_token: token })
        expect(form.sections[0]?.id).toMatch(/.+/)
        expect(form.fields[0]).toMatchObject({ slug: "email", is_required: false, options: null, position: 1, maps_to: null })
        const asAnswered = { ...form, opens_at: null, closes_at: null, created_at: "x", updated_at: "y", public_url: null, page_url: null }
        const replaced = yield* authoring.replaceForm(actor, form.id, asAnswered, '"1"')
        expect(replaced.revision).toBe(2)
        expect(replaced.fields.map((f) => f.id)).toEqual(form.fields.map((f) => f.id))
        const advance = yield* authoring.createForm(actor, body({ type: "artist_advance", fields: [] }), token)
        expect(advance.public_token).toBeNull()
      }))

    it.effect("a file field's max_bytes is capped by FILE_MAX_BYTES (here 1,000,000): over it 422 max at the member", () =>
      Effect.gen(function*() {
        const authoring = yield* FormAuthoring
        const actor = yield* newActor
        const file = (maxBytes: number) => body({ fields: [{ slug: "rider", label: "Rider", type: "file", validation_rules: { max_bytes: maxBytes } }] })
        const refused = yield* Effect.flip(authoring.createForm(actor, file(1_000_001), token))
        expect(rules(refused)).toEqual({ "fields.0.validation_rules.max_bytes": ["max"] })
        expect(fieldsOf(refused)["fields.0.validation_rules.max_bytes"]?.[0]).toMatchObject({ message: "max_bytes is at most 1000000." })
        const form = yield* authoring.createForm(actor, file(1_000_000), token)
        expect(form.fields[0]?.validation_rules).toMatchObject({ max_bytes: 1_000_000 })
      }))

    it.effect("a part sent without position gets its 1-based index in its list; a position sent is kept", () =>
      Effect.gen(function*() {
        const authoring = yield* FormAuthoring
        const actor = yield* newActor
        const form = yield* authoring.createForm(actor, body({
          sections: [{ name: "First" }, { name: "Second" }, { name: "Third", position: 0.5 }],
          fields: [
            { slug: "zeta", label: "Z", type: "text" },
            { slug: "alpha", label: "A", type: "text" },
            { slug: "mid", label: "M", type: "text", position: 7 },
            { slug: "beta", label: "B", type: "text" }
          ]
        }), token)
        expect(form.sections.map((s) => [s.name, s.position])).toEqual([["First", 1], ["Second", 2], ["Third", 0.5]])
        expect(form.fields.map((f) => [f.slug, f.position])).toEqual([["zeta", 1], ["alpha", 2], ["mid", 7], ["beta", 4]])
      }))

    it.effect("a form type or field type outside the lists → 422 in, naming the valid ones; nothing written", () =>
      Effect.gen(function*() {
        const authoring = yield* FormAuthoring
        const actor = yield* newActor
        const error = yield* Effect.flip(authoring.createForm(actor, body({
          type: "volunteers",
          fields: [{ slug: "size", label: "Size", type: "dropdown" }]
        }), token))
        expect(rules(error)).toEqual({ type: ["in"], "fields.0.type": ["in"] })
        expect(fieldsOf(error)["type"]?.[0]).toMatchObject({ message: expect.stringContaining("registration, volunteer, artist_advance") })
        expect((yield* authoring.listForms(actor, { limit: 10, after: undefined })).items).toEqual([])
      }))

    it.effect("validation_rules.regex_message round-trips; a non-string or one over 200 characters is refused at its path", () =>
      Effect.gen(function*() {
        const authoring = yield* FormAuthoring
        const actor = yield* newActor
        const own = { regex: "^[A-Z]{2}-\\d{4}$", regex_message: "Like AB-1234." }
        const form = yield* authoring.createForm(actor, body({ fields: [{ slug: "code", label: "Code", type: "text", validation_rules: own }] }), token)
        expect(form.fields[0]?.validation_rules).toEqual(own)
        const error = yield* Effect.flip(authoring.createForm(actor, body({
          fields: [
            { slug: "a", label: "A", type: "text", validation_rules: { regex: "a", regex_message: 7 } },
            { slug: "b", label: "B", type: "text", validation_rules: { regex: "b", regex_message: "y".repeat(201) } },
            { slug: "c", label: "C", type: "text", validation_rules: { regex: "c", regex_message: "x\ud800" } }
          ]
        }), token))
        expect(rules(error)).toEqual({
          "fields.0.validation_rules.regex_message": ["invalid"],
          "fields.1.validation_rules.regex_message": ["max"],
          "fields.2.validation_rules.regex_message": ["invalid"]
        })
      }))

    it.effect("order of checks: 404, then 428 / 412, then 422", () =>
      Effect.gen(function*() {
        const authoring = yield* FormAuthoring
        const actor = yield* newActor
        const other = yield* newActor
        const form = yield* authoring.createForm(actor, body(), token)
        const tag = (e: { readonly _tag: string }) => e._tag
        expect(tag(yield* Effect.flip(authoring.replaceForm(other, form.id, {}, undefined)))).toBe("FormNotFound")
        expect(tag(yield* Effect.flip(authoring.replaceForm(actor, form.id, {}, undefined)))).toBe("PreconditionRequired")
        expect(tag(yield* Effect.flip(authoring.replaceForm(actor, form.id, {}, '"2"')))).toBe("RevisionConflict")
        expect(tag(yield* Effect.flip(authoring.replaceForm(actor, form.id, {}, 'W/"1"')))).toBe("RevisionConflict")
        expect(tag(yield* Effect.flip(authoring.replaceForm(actor, form.id, {}, "*")))).toBe("ValidationFailed")
        expect(tag(yield* Effect.flip(authoring.patchForm(actor, form.id, { name: "x" }, '"7"')))).toBe("RevisionConflict")
        expect((yield* authoring.patchForm(actor, form.id, { name: "x" }, undefined)).revision).toBe(2)
      }))

    it.effect("every problem of a definition at once, at its dotted path, nothing written", () =>
      Effect.gen(function*() {
        const authoring = yield* FormAuthoring
        const actor = yield* newActor
        const refused = yield* Effect.flip(authoring.createForm(actor, {
          type: "registration",
          event_id: "no-such-event",
          colour: "red",
          fields: [
            { slug: "Bad", label: "x", type: "text" },
            { slug: "ok", label: "x", type: "text", validation_rules: { regex: "(?<=a)b", min: 3, max: 1 } },
            { slug: "ok", label: "x", type: "time_slots", section_id: "nope", options: [{ label: "no value" }] },
            { label: 3 }
          ]
        }, token))
        expect(rules(refused)).toEqual({
          colour: ["invalid"],
          name: ["required"],
          event_id: ["in"],
          "fields.0.slug": ["invalid"],
          "fields.1.validation_rules.min": ["invalid"],
          "fields.1.validation_rules.regex": ["regex"],
          "fields.2.options.0.value": ["required"],
          "fields.3.slug": ["required"],
          "fields.3.type": ["required"],
          "fields.3.label": ["invalid"]
        })
        expect((yield* authoring.listForms(actor, { limit: 10, after: undefined })).items).toEqual([])
        const clean = yield* Effect.flip(authoring.createForm(actor, body({
          fields: [
            { slug: "a", label: "x", type: "text" },
            { slug: "a", label: "x", type: "time_slots", section_id: "nope" }
          ]
        }), token))
        expect(rules(clean)).toEqual({ "fields.1.slug": ["unique"], "fields.1.section_id": ["in"] })
      }))
  })
})
