/**
 * "A change applies at once" (CONTRACT §12) in the use cases: the schema reader here keeps what it read
 * first (as a process cache may for a moment); the write's revision check and `findCurrent` make every
 * save, submit and create follow the form as stored now, and refusals come only from the current rules.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import type { FormSchema } from "../forms/FormSchema.js"
import { FormsConfig } from "../FormsConfig.js"
import { seedIds, seedTokens } from "../memory/conformanceSeed.js"
import { InMemory } from "../memory/InMemory.js"
import { InMemoryStore } from "../memory/InMemoryStore.js"
import { body, ip, keyOf, reasonOf, seedNowMs } from "../testing/publicForms/publicFormsTestKit.js"
import { FormSchemas } from "./FormSchemas.js"
import { PublicFormsLive } from "./makePublicForms.js"
import { PublicForms } from "./PublicForms.js"

/** A reader that serves the schema it first read for a token, forever; `findCurrent` reads the store. */
const StaleFormSchemas = Layer.effect(
  FormSchemas,
  Effect.gen(function*() {
    const store = yield* InMemoryStore
    const kept = new Map<string, FormSchema>()
    return FormSchemas.of({
      findByToken: (token) =>
        Effect.sync(() => {
          const hit = kept.get(token)
          if (hit !== undefined) return Option.some(hit)
          const found = [...store.data.schemas.values()].find((s) => s.public_token === token)
          if (found !== undefined) kept.set(token, found)
          return Option.fromUndefinedOr(found)
        }),
      findCurrent: (id) => Effect.sync(() => Option.fromUndefinedOr(store.data.schemas.get(id)))
    })
  })
)

const world = PublicFormsLive.layer.pipe(
  Layer.provide(StaleFormSchemas),
  Layer.provideMerge(Layer.mergeAll(InMemory.layer(), FormsConfig.layer()))
)

const setRegex = (regex: string | null) =>
  Effect.flatMap(InMemoryStore, (store) =>
    store.updateSchema(seedIds.volunteer, (schema) => ({
      ...schema,
      fields: schema.fields.map((f) => (f.slug === "name" ? { ...f, validation_rules: regex === null ? null : { regex } } : f))
    })))

const run = <A, E>(effect: Effect.Effect<A, E, PublicForms | InMemoryStore>) =>
  Effect.gen(function*() {
    yield* TestClock.setTime(seedNowMs)
    return yield* effect
  }).pipe(Effect.provide(world))

describe("PublicForms: a changed form applies to the next write, whatever a reader kept", () => {
  it.effect("a save, a submit and a create validated by stale rules are validated again with the current ones", () =>
    run(Effect.gen(function*() {
      const forms = yield* PublicForms
      const { submission } = (yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1), values: body() }, ip)).value
      yield* forms.save(seedTokens.volunteer, submission.id, body({ name: "ada" }), ip)
      yield* setRegex("^[A-Z]+$")
      const refused = yield* reasonOf(forms.save(seedTokens.volunteer, submission.id, body({ name: "ada" }), ip))
      expect(refused).toMatchObject({ _tag: "ValidationFailed", fields: { name: [{ rule: "regex" }] } })
      const created = yield* reasonOf(forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(2), values: body({ name: "bob" }) }, ip))
      expect(created).toMatchObject({ _tag: "ValidationFailed", fields: { name: [{ rule: "regex" }] } })
      const store = yield* InMemoryStore
      expect((yield* store.submissions).length).toBe(1)
      // The saved "ada" breaks the new pattern: the submit checks the merged map strictly, with the new rules.
      const submit = yield* reasonOf(forms.submit(seedTokens.volunteer, submission.id, body({ email: "ada@example.org", shirt: "M" }), ip))
      expect(submit).toMatchObject({ _tag: "ValidationFailed", fields: { name: [{ rule: "regex" }] } })
      expect((yield* forms.save(seedTokens.volunteer, submission.id, body({ name: "ADA" }), ip)).value.values["name"]).toBe("ADA")
    })))

  it.effect("a refusal is given only by the current rules: a pattern removed no longer refuses", () =>
    run(Effect.gen(function*() {
      const forms = yield* PublicForms
      yield* setRegex("^[a-z]+$")
      const { submission } = (yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(3), values: body() }, ip)).value
      yield* setRegex(null)
      const saved = yield* forms.save(seedTokens.volunteer, submission.id, body({ name: "ADA" }), ip)
      expect(saved.value.values["name"]).toBe("ADA")
      const submitted = yield* forms.submit(seedTokens.volunteer, submission.id, body({ email: "ada@example.org", name: "ADA 2", shirt: "M" }), ip)
      expect(submitted.value.status).toBe("submitted")
    })))

  it.effect("a form deleted after a reader kept it: a create answers FormNotFound and writes nothing", () =>
    run(Effect.gen(function*() {
      const forms = yield* PublicForms
      yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1), values: body() }, ip)
      const store = yield* InMemoryStore
      store.data.schemas.delete(seedIds.volunteer)
      const before = (yield* store.submissions).length
      for (const [n, values] of [[2, undefined], [3, body()]] as const) {
        const refused = yield* reasonOf(forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(n), ...(values === undefined ? {} : { values }) }, ip))
        expect(refused._tag).toBe("FormNotFound")
      }
      expect((yield* store.submissions).length).toBe(before)
    })))
})
