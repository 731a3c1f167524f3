import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { seedIds, seedTokens } from "../testing/conformanceFixture.js"
import { InMemoryStore } from "../testing/InMemoryStore.js"
import { body, inWorld, keyOf, validVolunteer } from "../testing/publicFormsTestKit.js"
import { PublicForms } from "./PublicForms.js"

describe("PublicForms.createDraft", () => {
  it.effect("a new key creates a draft of the schema's event, with only the schema's slugs", () =>
    inWorld(Effect.gen(function*() {
      const raw = JSON.parse(`{"email":"a@b.nl","__proto__":{"x":1},"constructor":"c","status":"submitted","id":"x"}`) as Record<string, unknown>
      const { created, submission } = yield* (yield* PublicForms).createDraft(seedTokens.volunteer, {
        idempotency_key: keyOf(1),
        values: raw
      })
      expect(created).toBe(true)
      expect([submission.status, submission.auto_save_count, submission.event_id, submission.schema_id]).toEqual([
        "draft",
        0,
        seedIds.festival,
        seedIds.volunteer
      ])
      expect({ ...submission.values }).toEqual({ email: "a@b.nl" })
      expect(Object.getPrototypeOf(submission.values)).toBeNull()
    })))

  it.effect("without values the draft starts empty", () =>
    inWorld(Effect.gen(function*() {
      const { submission } = yield* (yield* PublicForms).createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1) })
      expect({ ...submission.values }).toEqual({})
    })))

  it.effect("a second create with the same key returns the first draft, its values untouched", () =>
    inWorld(Effect.gen(function*() {
      const forms = yield* PublicForms
      const first = yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1), values: body({ name: "Ada" }) })
      const again = yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1), values: body({ name: "Bob", age: "x" }) })
      expect(again.created).toBe(false)
      expect(again.submission.id).toBe(first.submission.id)
      expect({ ...again.submission.values }).toEqual({ name: "Ada" })
    })))

  it.effect("the same key on another form creates that form's own draft", () =>
    inWorld(Effect.gen(function*() {
      const forms = yield* PublicForms
      const a = yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1) })
      const b = yield* forms.createDraft(seedTokens.registration, { idempotency_key: keyOf(1) })
      expect([a.created, b.created]).toEqual([true, true])
      expect(b.submission.schema_id).toBe(seedIds.registration)
    })))

  it.effect("the previous token inside the grace window reaches the same drafts", () =>
    inWorld(Effect.gen(function*() {
      const forms = yield* PublicForms
      const a = yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1) })
      const b = yield* forms.createDraft(seedTokens.volunteerPrevious, { idempotency_key: keyOf(1) })
      expect([b.created, b.submission.id]).toEqual([false, a.submission.id])
    })))

  it.effect("an unknown or unpublished token → FormNotFound, nothing written", () =>
    inWorld(Effect.gen(function*() {
      const forms = yield* PublicForms
      const tags = yield* Effect.all([
        Effect.flip(forms.createDraft("tok-unknown-000000001", { idempotency_key: keyOf(1) })),
        Effect.flip(forms.createDraft(seedTokens.draft, { idempotency_key: keyOf(1) })),
        Effect.flip(forms.createDraft(seedTokens.advance, { idempotency_key: keyOf(1) }))
      ])
      expect(tags.map((e) => e._tag)).toEqual(["FormNotFound", "FormNotFound", "FormNotFound"])
      expect(yield* (yield* InMemoryStore).submissions).toEqual([])
    })))

  it.effect.each([
    { case: "closed", token: seedTokens.closed },
    { case: "not yet open", token: seedTokens.future }
  ])("a new key on a form that is $case → FormClosed, nothing written", ({ token }) =>
    inWorld(Effect.gen(function*() {
      const error = yield* Effect.flip((yield* PublicForms).createDraft(token, { idempotency_key: keyOf(1) }))
      expect(error._tag).toBe("FormClosed")
      expect(yield* (yield* InMemoryStore).submissions).toEqual([])
    })))

  it.effect("FormClosed comes before the values: a closed form with invalid values is closed", () =>
    inWorld(Effect.gen(function*() {
      const error = yield* Effect.flip((yield* PublicForms).createDraft(seedTokens.closed, {
        idempotency_key: keyOf(1),
        values: body({ email: "nope" })
      }))
      expect(error._tag).toBe("FormClosed")
    })))

  it.effect("a replay answers the stored draft after the form closed", () =>
    inWorld(Effect.gen(function*() {
      const forms = yield* PublicForms
      const first = yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1) })
      yield* TestClock.setTime(Date.parse("2028-01-01T00:00:00.000Z"))
      const again = yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1), values: body({ email: "bad" }) })
      expect([again.created, again.submission.id]).toEqual([false, first.submission.id])
    })))

  it.effect("a replay of a submitted key answers the submitted submission, even when closed", () =>
    inWorld(Effect.gen(function*() {
      const forms = yield* PublicForms
      const { submission } = yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1), values: body(validVolunteer()) })
      yield* forms.submit(seedTokens.volunteer, submission.id, body(), "10.0.0.1")
      yield* TestClock.setTime(Date.parse("2028-01-01T00:00:00.000Z"))
      const again = yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1) })
      expect([again.created, again.submission.status, again.submission.id]).toEqual([false, "submitted", submission.id])
    })))

  it.effect("values are checked with relaxed rules: required is not, the other rules are; a failure writes nothing", () =>
    inWorld(Effect.gen(function*() {
      const forms = yield* PublicForms
      const ok = yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1), values: body({ shirt: "S" }) })
      expect(ok.created).toBe(true)
      const error = yield* Effect.flip(forms.createDraft(seedTokens.volunteer, {
        idempotency_key: keyOf(2),
        values: body({ email: "not-an-email", shirt: "XXL", unknown: "dropped" })
      }))
      expect(error._tag).toBe("ValidationFailed")
      if (error._tag !== "ValidationFailed") return
      expect(Object.keys(error.fields).sort()).toEqual(["email", "shirt"])
      expect(error.fields["email"]?.map((e) => e.rule)).toEqual(["email"])
      expect(error.fields["shirt"]?.map((e) => e.rule)).toEqual(["in"])
      expect(error.rateLimit).toBeUndefined()
      expect((yield* (yield* InMemoryStore).submissions).length).toBe(1)
    })))

  it.effect("a value already submitted on a unique field → ValidationFailed `unique` on create", () =>
    inWorld(Effect.gen(function*() {
      const forms = yield* PublicForms
      const { submission } = yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1), values: body(validVolunteer("Ada@Example.org")) })
      yield* forms.submit(seedTokens.volunteer, submission.id, body(), "10.0.0.1")
      const error = yield* Effect.flip(forms.createDraft(seedTokens.volunteer, {
        idempotency_key: keyOf(2),
        values: body({ email: " ada@example.ORG " })
      }))
      expect(error).toMatchObject({ _tag: "ValidationFailed", fields: { email: [{ rule: "unique" }] } })
    })))

  it.effect("a draft holding a unique value does not block another draft (only submitted values count)", () =>
    inWorld(Effect.gen(function*() {
      const forms = yield* PublicForms
      yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1), values: body({ email: "a@b.nl" }) })
      const second = yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(2), values: body({ email: "a@b.nl" }) })
      expect(second.created).toBe(true)
    })))

  it.effect("a store that cannot be reached → Unavailable", () =>
    inWorld(Effect.gen(function*() {
      yield* (yield* InMemoryStore).setUnavailable("down")
      const error = yield* Effect.flip((yield* PublicForms).createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1) }))
      expect(error._tag).toBe("Unavailable")
    })))
})
