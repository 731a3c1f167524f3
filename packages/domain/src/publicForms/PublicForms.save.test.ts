import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { type Client, clientAt } from "../limits/LimitPolicy.js"
import { seedIds, seedTokens } from "../memory/conformanceSeed.js"
import { InMemoryStore } from "../memory/InMemoryStore.js"
import { body, inWorld, ip, keyOf, reasonOf, validVolunteer } from "../testing/publicForms/publicFormsTestKit.js"
import { PublicForms } from "./PublicForms.js"

const draftOn = (token: string, values: Record<string, unknown> = {}, n = 1) =>
  Effect.gen(function*() {
    const forms = yield* PublicForms
    return (yield* forms.createDraft(token, { idempotency_key: keyOf(n), values: body(values) }, ip)).value.submission
  })

describe("PublicForms.save", () => {
  it.effect("writes only the slugs sent (schema slugs only) and counts one save", () =>
    inWorld(Effect.gen(function*() {
      const forms = yield* PublicForms
      const draft = yield* draftOn(seedTokens.volunteer, { email: "a@b.nl" })
      const raw = JSON.parse(`{"name":"Ada","__proto__":{"p":1},"id":"x","status":"submitted","auto_save_count":99}`) as Record<string, unknown>
      const { value: saved } = yield* forms.save(seedTokens.volunteer, draft.id, raw, ip)
      expect({ ...saved.values }).toEqual({ email: "a@b.nl", name: "Ada" })
      expect([saved.id, saved.status, saved.auto_save_count]).toEqual([draft.id, "draft", 1])
      const { value: again } = yield* forms.save(seedTokens.volunteer, draft.id, body({ email: null }), ip)
      expect({ ...again.values }).toEqual({ email: null, name: "Ada" })
      expect(again.auto_save_count).toBe(2)
    })))

  it.effect("an empty save still counts; values on create did not", () =>
    inWorld(Effect.gen(function*() {
      const draft = yield* draftOn(seedTokens.volunteer, { email: "a@b.nl" })
      expect(draft.auto_save_count).toBe(0)
      expect((yield* (yield* PublicForms).save(seedTokens.volunteer, draft.id, body(), ip)).value.auto_save_count).toBe(1)
    })))

  it.effect("relaxed rules: required values may be missing or emptied, other rules apply", () =>
    inWorld(Effect.gen(function*() {
      const forms = yield* PublicForms
      const draft = yield* draftOn(seedTokens.volunteer)
      yield* forms.save(seedTokens.volunteer, draft.id, body({ email: "", name: null }), ip)
      const error = yield* reasonOf(forms.save(seedTokens.volunteer, draft.id, body({ age: 12, phone: "12" }), ip))
      expect(error).toMatchObject({ _tag: "ValidationFailed", fields: { age: [{ rule: "min" }], phone: [{ rule: "phone" }] } })
      const stored = yield* (yield* InMemoryStore).submission(draft.id)
      expect(stored?.auto_save_count).toBe(1)
    })))

  it.effect("a unique value already submitted → `unique` on save", () =>
    inWorld(Effect.gen(function*() {
      const forms = yield* PublicForms
      const first = yield* draftOn(seedTokens.volunteer, { ...validVolunteer(), nickname: "  ada  " }, 1)
      yield* forms.submit(seedTokens.volunteer, first.id, body(), ip)
      const second = yield* draftOn(seedTokens.volunteer, {}, 2)
      const error = yield* reasonOf(forms.save(seedTokens.volunteer, second.id, body({ nickname: "ada", age: 5 }), ip))
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
      const tag = (effect: Effect.Effect<unknown, { readonly _tag: string }>) => Effect.map(reasonOf(effect), (e) => e._tag)

      expect(yield* tag(forms.save("tok-unknown-000000001", "no-such-id", bad, ip))).toBe("FormNotFound")
      expect(yield* tag(forms.save(seedTokens.volunteer, "no-such-id", bad, ip))).toBe("SubmissionNotFound")
      expect(yield* tag(forms.save(seedTokens.volunteer, other.id, bad, ip))).toBe("SubmissionNotFound")
      expect(yield* tag(forms.save(seedTokens.volunteer, draft.id, bad, ip))).toBe("ValidationFailed")

      yield* TestClock.setTime(Date.parse("2028-01-01T00:00:00.000Z"))
      expect(yield* tag(forms.save(seedTokens.volunteer, draft.id, bad, ip))).toBe("FormClosed")
      yield* TestClock.setTime(Date.parse("2027-07-01T00:00:00.000Z"))

      yield* forms.submit(seedTokens.volunteer, draft.id, body(), ip)
      yield* TestClock.setTime(Date.parse("2028-01-01T00:00:00.000Z"))
      const submitted = yield* Effect.flip(forms.save(seedTokens.volunteer, draft.id, bad, ip))
      // Save counts against the write limit (it used to carry no state). In this hour's window: the save
      // refused FormClosed at this instant, and this one (the 404s did not count; July's writes left the window).
      expect(submitted).toMatchObject({
        _tag: "Refused",
        reason: { _tag: "AlreadySubmitted" },
        rateLimit: { policy: "write", limit: 600, window_seconds: 3600, remaining: 598, reset_seconds: 3600 }
      })
    })))

  it.effect("a submitted submission answers 409 before refused values and before a closed form, and stays as submitted", () =>
    inWorld(Effect.gen(function*() {
      const forms = yield* PublicForms
      const draft = yield* draftOn(seedTokens.volunteer, validVolunteer())
      const { value: stored } = yield* forms.submit(seedTokens.volunteer, draft.id, body(), ip)
      const tag = (effect: Effect.Effect<unknown, { readonly _tag: string }>) => Effect.map(reasonOf(effect), (e) => e._tag)
      expect(yield* tag(forms.save(seedTokens.volunteer, draft.id, body({ email: "nope" }), ip))).toBe("AlreadySubmitted")
      expect(yield* tag(forms.save(seedTokens.volunteer, draft.id, body({ name: "Grace" }), ip))).toBe("AlreadySubmitted")
      yield* TestClock.setTime(Date.parse("2028-01-01T00:00:00.000Z"))
      expect(yield* tag(forms.save(seedTokens.volunteer, draft.id, body({ email: "nope" }), ip))).toBe("AlreadySubmitted")
      const store = yield* InMemoryStore
      expect(yield* store.submission(draft.id)).toEqual(stored)
    })))

  it.effect("an exempt client's save of an unknown id is a 404, and a valid one saves", () =>
    inWorld(Effect.gen(function*() {
      const forms = yield* PublicForms
      const exempt = clientAt("10.9.9.9", { exempt: true })
      const draft = yield* draftOn(seedTokens.volunteer, validVolunteer())
      expect((yield* reasonOf(forms.save(seedTokens.volunteer, "00000000-0000-4000-8000-000000000000", body(), exempt)))._tag)
        .toBe("SubmissionNotFound")
      const saved = yield* forms.save(seedTokens.volunteer, draft.id, body({ name: "Grace" }), exempt)
      expect(saved.rateLimit).toBeUndefined()
      expect(saved.value.values["name"]).toBe("Grace")
    })))

  it.effect("a closed form refuses saves of an existing draft; a not-yet-open one too", () =>
    inWorld(Effect.gen(function*() {
      const store = yield* InMemoryStore
      const forms = yield* PublicForms
      const draft = yield* draftOn(seedTokens.registration)
      yield* store.updateSchema("fs-registration", (s) => ({ ...s, opens_at: Date.parse("2030-01-01T00:00:00.000Z") }))
      expect((yield* reasonOf(forms.save(seedTokens.registration, draft.id, body(), ip)))._tag).toBe("FormClosed")
    })))
})

describe("the write limit on save", () => {
  const limited = { config: { writeLimitPerHour: 3 } }
  const writeKey = (client: Client = ip) => `write:${seedIds.volunteer}:${client.address}`

  it.effect("create and save share one budget per client and schema; past it a save is Refused(RateLimited), nothing written", () =>
    inWorld(
      Effect.gen(function*() {
        const forms = yield* PublicForms
        const store = yield* InMemoryStore
        const draft = yield* draftOn(seedTokens.volunteer)
        yield* TestClock.adjust(60_000)
        const saved = yield* forms.save(seedTokens.volunteer, draft.id, body({ name: "Ada" }), ip)
        expect(saved.rateLimit).toEqual({ policy: "write", limit: 3, window_seconds: 3600, remaining: 1, reset_seconds: 3540 })
        yield* draftOn(seedTokens.volunteer, {}, 2)
        const refused = yield* Effect.flip(forms.save(seedTokens.volunteer, draft.id, body({ name: "Bob" }), ip))
        expect(refused).toMatchObject({
          _tag: "Refused",
          reason: { _tag: "RateLimited" },
          rateLimit: { policy: "write", limit: 3, window_seconds: 3600, remaining: 0, reset_seconds: 3540 }
        })
        expect((yield* reasonOf(forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(3) }, ip)))._tag).toBe("RateLimited")
        const stored = yield* store.submission(draft.id)
        expect([stored?.values["name"], stored?.auto_save_count]).toEqual(["Ada", 1])
        expect((yield* store.submissions).length).toBe(2)
        // Refused requests are not counted: the window slides from the counted ones.
        expect((yield* store.hits(writeKey())).length).toBe(3)
        yield* TestClock.adjust(3_540_000)
        expect((yield* forms.save(seedTokens.volunteer, draft.id, body({ name: "Cy" }), ip)).rateLimit).toMatchObject({ remaining: 0, reset_seconds: 60 })
      }),
      limited
    ))

  it.effect("a save refused 409 or 422 counts, and carries the state", () =>
    inWorld(
      Effect.gen(function*() {
        const forms = yield* PublicForms
        const draft = yield* draftOn(seedTokens.volunteer)
        const invalid = yield* Effect.flip(forms.save(seedTokens.volunteer, draft.id, body({ email: "nope" }), ip))
        expect(invalid).toMatchObject({ _tag: "Refused", reason: { _tag: "ValidationFailed" }, rateLimit: { policy: "write", remaining: 1 } })
        yield* TestClock.setTime(Date.parse("2028-01-01T00:00:00.000Z"))
        const closed = yield* Effect.flip(forms.save(seedTokens.volunteer, draft.id, body(), ip))
        expect(closed).toMatchObject({ _tag: "Refused", reason: { _tag: "FormClosed" }, rateLimit: { policy: "write", remaining: 2 } })
      }),
      limited
    ))

  it.effect("an unknown token or submission (404) is not counted", () =>
    inWorld(
      Effect.gen(function*() {
        const forms = yield* PublicForms
        const store = yield* InMemoryStore
        const draft = yield* draftOn(seedTokens.volunteer)
        const other = yield* draftOn(seedTokens.registration)
        for (let i = 0; i < 5; i++) {
          expect((yield* Effect.flip(forms.save("tok-unknown-000000001", draft.id, body(), ip)))._tag).toBe("FormNotFound")
          expect((yield* Effect.flip(forms.save(seedTokens.volunteer, "no-such-submission", body(), ip)))._tag).toBe("SubmissionNotFound")
          expect((yield* Effect.flip(forms.save(seedTokens.volunteer, other.id, body(), ip)))._tag).toBe("SubmissionNotFound")
        }
        expect((yield* store.hits(writeKey())).length).toBe(1)
        expect((yield* forms.save(seedTokens.volunteer, draft.id, body(), ip)).rateLimit?.remaining).toBe(1)
      }),
      limited
    ))

  it.effect("an exempt client is never counted and gets no state", () =>
    inWorld(
      Effect.gen(function*() {
        const forms = yield* PublicForms
        const store = yield* InMemoryStore
        const exempt = clientAt("10.0.0.9", { exempt: true })
        const { value: { submission } } = yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1) }, exempt)
        for (let i = 0; i < 5; i++) {
          const answer = yield* forms.save(seedTokens.volunteer, submission.id, body({ name: `n${i}` }), exempt)
          expect([answer.value.auto_save_count, answer.rateLimit]).toEqual([i + 1, undefined])
        }
        const refused = yield* Effect.flip(forms.save(seedTokens.volunteer, submission.id, body({ email: "nope" }), exempt))
        expect(refused).toMatchObject({ _tag: "Refused", reason: { _tag: "ValidationFailed" }, rateLimit: undefined })
        expect([...store.data.hits.keys()]).toEqual([])
        // The budget of a counted client is untouched.
        expect((yield* forms.save(seedTokens.volunteer, submission.id, body(), ip)).rateLimit?.remaining).toBe(2)
      }),
      limited
    ))
})
