import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { seedTokens } from "../testing/conformanceFixture.js"
import { InMemoryStore } from "../testing/InMemoryStore.js"
import { body, inWorld, keyOf, validVolunteer } from "../testing/publicFormsTestKit.js"
import { PublicForms } from "./PublicForms.js"

const draftOn = (token: string, values: Record<string, unknown> = {}, n = 1) =>
  Effect.gen(function*() {
    const forms = yield* PublicForms
    return (yield* forms.createDraft(token, { idempotency_key: keyOf(n), values: body(values) })).submission
  })

describe("PublicForms.save", () => {
  it.effect("writes only the slugs sent (schema slugs only) and counts one save", () =>
    inWorld(Effect.gen(function*() {
      const forms = yield* PublicForms
      const draft = yield* draftOn(seedTokens.volunteer, { email: "a@b.nl" })
      const raw = JSON.parse(`{"name":"Ada","__proto__":{"p":1},"id":"x","status":"submitted","auto_save_count":99}`) as Record<string, unknown>
      const saved = yield* forms.save(seedTokens.volunteer, draft.id, raw)
      expect({ ...saved.values }).toEqual({ email: "a@b.nl", name: "Ada" })
      expect([saved.id, saved.status, saved.auto_save_count]).toEqual([draft.id, "draft", 1])
      const again = yield* forms.save(seedTokens.volunteer, draft.id, body({ email: null }))
      expect({ ...again.values }).toEqual({ email: null, name: "Ada" })
      expect(again.auto_save_count).toBe(2)
    })))

  it.effect("an empty save still counts; values on create did not", () =>
    inWorld(Effect.gen(function*() {
      const draft = yield* draftOn(seedTokens.volunteer, { email: "a@b.nl" })
      expect(draft.auto_save_count).toBe(0)
      expect((yield* (yield* PublicForms).save(seedTokens.volunteer, draft.id, body())).auto_save_count).toBe(1)
    })))

  it.effect("relaxed rules: required values may be missing or emptied, other rules apply", () =>
    inWorld(Effect.gen(function*() {
      const forms = yield* PublicForms
      const draft = yield* draftOn(seedTokens.volunteer)
      yield* forms.save(seedTokens.volunteer, draft.id, body({ email: "", name: null }))
      const error = yield* Effect.flip(forms.save(seedTokens.volunteer, draft.id, body({ age: 12, phone: "12" })))
      expect(error).toMatchObject({ _tag: "ValidationFailed", fields: { age: [{ rule: "min" }], phone: [{ rule: "phone" }] } })
      const stored = yield* (yield* InMemoryStore).submission(draft.id)
      expect(stored?.auto_save_count).toBe(1)
    })))

  it.effect("a unique value already submitted → `unique` on save", () =>
    inWorld(Effect.gen(function*() {
      const forms = yield* PublicForms
      const first = yield* draftOn(seedTokens.volunteer, { ...validVolunteer(), nickname: "  ada  " }, 1)
      yield* forms.submit(seedTokens.volunteer, first.id, body(), "10.0.0.1")
      const second = yield* draftOn(seedTokens.volunteer, {}, 2)
      const error = yield* Effect.flip(forms.save(seedTokens.volunteer, second.id, body({ nickname: "ada", age: 5 })))
      expect(error).toMatchObject({
        _tag: "ValidationFailed",
        fields: { nickname: [{ rule: "unique", message: "This value has already been used." }], age: [{ rule: "min" }] }
      })
    })))

  it.effect("checks in order: token → submission of the schema → draft → open → values", () =>
    inWorld(Effect.gen(function*() {
      const forms = yield* PublicForms
      const draft = yield* draftOn(seedTokens.volunteer, validVolunteer())
      const other = yield* draftOn(seedTokens.registration)
      const bad = body({ email: "nope" })
      const tag = (effect: Effect.Effect<unknown, { readonly _tag: string }>) => Effect.map(Effect.flip(effect), (e) => e._tag)

      expect(yield* tag(forms.save("tok-unknown-000000001", "no-such-id", bad))).toBe("FormNotFound")
      expect(yield* tag(forms.save(seedTokens.volunteer, "no-such-id", bad))).toBe("SubmissionNotFound")
      expect(yield* tag(forms.save(seedTokens.volunteer, other.id, bad))).toBe("SubmissionNotFound")
      expect(yield* tag(forms.save(seedTokens.volunteer, draft.id, bad))).toBe("ValidationFailed")

      yield* TestClock.setTime(Date.parse("2028-01-01T00:00:00.000Z"))
      expect(yield* tag(forms.save(seedTokens.volunteer, draft.id, bad))).toBe("FormClosed")
      yield* TestClock.setTime(Date.parse("2027-07-01T00:00:00.000Z"))

      yield* forms.submit(seedTokens.volunteer, draft.id, body(), "10.0.0.1")
      yield* TestClock.setTime(Date.parse("2028-01-01T00:00:00.000Z"))
      const submitted = yield* Effect.flip(forms.save(seedTokens.volunteer, draft.id, bad))
      expect(submitted._tag).toBe("AlreadySubmitted")
      if (submitted._tag === "AlreadySubmitted") expect(submitted.rateLimit).toBeUndefined()
    })))

  it.effect("a closed form refuses saves of an existing draft; a not-yet-open one too", () =>
    inWorld(Effect.gen(function*() {
      const store = yield* InMemoryStore
      const forms = yield* PublicForms
      const draft = yield* draftOn(seedTokens.registration)
      yield* store.updateSchema("fs-registration", (s) => ({ ...s, opens_at: Date.parse("2030-01-01T00:00:00.000Z") }))
      expect((yield* Effect.flip(forms.save(seedTokens.registration, draft.id, body())))._tag).toBe("FormClosed")
    })))
})
