/**
 * Conditions in the use cases (CONTRACT §18): inactive fields are stored as sent on a save (checked only by
 * `invalid`), and at submit they are not required, not stored, not in the event, claim no unique value and take
 * no slot place.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type { FormField } from "../forms/FormField.js"
import { seedIds, seedTokens, shiftSlots } from "../memory/conformanceSeed.js"
import { InMemoryStore } from "../memory/InMemoryStore.js"
import { body, inWorld, ip, keyOf, reasonOf } from "../testing/publicForms/publicFormsTestKit.js"
import { PublicForms } from "./PublicForms.js"

const helping = { "==": [{ var: "helps" }, true] }

/** The shifts form with a `helps` question: `shifts` and a unique `badge` only for those who help. */
const withConditions = Effect.flatMap(InMemoryStore, (store) =>
  store.updateSchema(seedIds.shiftsForm, (schema) => {
    const base = schema.fields[0] as FormField
    return {
      ...schema,
      revision: schema.revision + 1,
      fields: [
        base,
        { ...base, id: "fsh-helps", slug: "helps", type: "boolean", is_required: true, position: 2 },
        ...schema.fields.slice(1).map((f) => ({ ...f, position: 3, visible_if: helping })),
        { ...base, id: "fsh-badge", slug: "badge", type: "text", is_required: true, is_unique: true, position: 4, visible_if: helping }
      ]
    }
  }))

const token = seedTokens.shifts

const draft = (values: Record<string, unknown>, n = 1) =>
  Effect.map(
    Effect.flatMap(PublicForms, (forms) => forms.createDraft(token, { idempotency_key: keyOf(n), values: body(values) }, ip)),
    (created) => created.value.submission
  )

describe("PublicForms with conditions", () => {
  it.effect("a required inactive field does not block a submit; its values are not stored, sent, claimed or placed", () =>
    inWorld(Effect.gen(function*() {
      yield* withConditions
      const forms = yield* PublicForms
      const store = yield* InMemoryStore
      const d = yield* draft({ email: "a@b.nl", helps: "true", badge: "B-1", shifts: [shiftSlots.a] })
      const { value } = yield* forms.submit(token, d.id, body({ helps: false }), ip)
      expect({ ...value.values }).toEqual({ email: "a@b.nl", helps: false })
      const outbox = yield* store.outbox
      expect(outbox[0]?.payload["values"]).toEqual({ email: "a@b.nl", helps: false })
      expect(yield* store.claims).toEqual([])
      expect([...(store.data.places.get(shiftSlots.a) ?? [])]).toEqual([])
    })))

  it.effect("the same fields active are required, then claimed and placed", () =>
    inWorld(Effect.gen(function*() {
      yield* withConditions
      const forms = yield* PublicForms
      const store = yield* InMemoryStore
      const d = yield* draft({ email: "a@b.nl", helps: "1" })
      const refused = yield* reasonOf(forms.submit(token, d.id, body(), ip))
      expect(Object.keys((refused as { fields: object }).fields)).toEqual(["shifts", "badge"])
      const { value } = yield* forms.submit(token, d.id, body({ badge: "B-1", shifts: [shiftSlots.a] }), ip)
      expect({ ...value.values }).toEqual({ email: "a@b.nl", helps: "1", badge: "B-1", shifts: [shiftSlots.a] })
      expect((yield* store.claims).map((c) => c.slug)).toEqual(["badge"])
      expect(store.data.places.get(shiftSlots.a)?.size).toBe(1)
    })))

  it.effect("an inactive unique value is not claimed: a later submit with the same value succeeds", () =>
    inWorld(Effect.gen(function*() {
      yield* withConditions
      const forms = yield* PublicForms
      const first = yield* draft({ email: "a@b.nl", helps: false, badge: "SAME" }, 1)
      yield* forms.submit(token, first.id, body(), ip)
      const second = yield* draft({ email: "c@d.nl", helps: true, badge: "SAME", shifts: shiftSlots.a }, 2)
      const { value } = yield* forms.submit(token, second.id, body(), ip)
      expect(value.values["badge"]).toBe("SAME")
    })))

  it.effect("a save stores an inactive field's value as sent, checking only invalid; activity reads the saved values", () =>
    inWorld(Effect.gen(function*() {
      yield* withConditions
      const forms = yield* PublicForms
      const d = yield* draft({ email: "a@b.nl", helps: false })
      const saved = yield* forms.save(token, d.id, body({ shifts: ["nope"] }), ip)
      expect(saved.value.values["shifts"]).toEqual(["nope"])
      const invalid = yield* reasonOf(forms.save(token, d.id, body({ badge: { a: 1 } }), ip))
      expect((invalid as { fields: Record<string, ReadonlyArray<{ rule: string }>> }).fields["badge"]?.map((e) => e.rule)).toEqual(["invalid"])
      // Once `helps` is saved as true, the same slot value is checked by every rule of its field.
      yield* forms.save(token, d.id, body({ helps: true, shifts: null }), ip)
      const refused = yield* reasonOf(forms.save(token, d.id, body({ shifts: ["nope"] }), ip))
      expect(Object.keys((refused as { fields: object }).fields)).toEqual(["shifts"])
    })))

  it.effect("a value sent for an inactive field at submit gets only invalid and is dropped", () =>
    inWorld(Effect.gen(function*() {
      yield* withConditions
      const forms = yield* PublicForms
      const d = yield* draft({ email: "a@b.nl" })
      const invalid = yield* reasonOf(forms.submit(token, d.id, body({ helps: "0", badge: [1] }), ip))
      expect(Object.keys((invalid as { fields: object }).fields)).toEqual(["badge"])
      const { value } = yield* forms.submit(token, d.id, body({ helps: "0", badge: "x".repeat(3) }), ip)
      expect(Object.keys(value.values)).toEqual(["email", "helps"])
    })))
})
