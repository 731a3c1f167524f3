import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type { FormField } from "../forms/FormField.js"
import { seedIds, seedTokens } from "../memory/conformanceSeed.js"
import { InMemoryStore } from "../memory/InMemoryStore.js"
import { body, inWorld, ip, keyOf, reasonOf } from "../testing/publicForms/publicFormsTestKit.js"
import { PublicForms } from "./PublicForms.js"

/** A change of one field that keeps the schema's revision, as an edit by hand reaches the process. */
const editInPlace = (slug: string, change: (field: FormField) => FormField) =>
  Effect.gen(function*() {
    const { data } = yield* InMemoryStore
    const schema = data.schemas.get(seedIds.volunteer)
    if (schema === undefined) return yield* Effect.die(new Error("the seed has a volunteer schema"))
    const fields = schema.fields.map((field) => (field.slug === slug ? change(field) : field))
    data.schemas.set(schema.id, { ...schema, fields })
  })

describe("PublicForms: compiled rules follow the fields, not the revision", () => {
  it.effect("a regex added to a field in place applies to the next save; required added in place to the next submit", () =>
    inWorld(Effect.gen(function*() {
      const forms = yield* PublicForms
      const { submission } = (yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1), values: body() }, ip)).value
      yield* forms.save(seedTokens.volunteer, submission.id, body({ name: "Ada" }), ip)

      yield* editInPlace("name", (field) => ({ ...field, validation_rules: { regex: "^[A-Z]+$" } }))
      const refused = yield* reasonOf(forms.save(seedTokens.volunteer, submission.id, body({ name: "Ada" }), ip))
      expect(refused).toMatchObject({ _tag: "ValidationFailed", fields: { name: [{ rule: "regex" }] } })

      yield* editInPlace("nickname", (field) => ({ ...field, is_required: true }))
      const missing = yield* reasonOf(forms.submit(seedTokens.volunteer, submission.id, body({ name: "ADA" }), ip))
      expect(missing).toMatchObject({ _tag: "ValidationFailed", fields: { nickname: [{ rule: "required" }] } })
    })))
})
