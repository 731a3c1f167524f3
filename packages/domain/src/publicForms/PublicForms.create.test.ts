import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { type Client, clientAt } from "../limits/LimitPolicy.js"
import { seedIds, seedTokens } from "../memory/conformanceSeed.js"
import { InMemoryStore } from "../memory/InMemoryStore.js"
import { body, inWorld, ip, keyOf, reasonOf, validVolunteer } from "../testing/publicForms/publicFormsTestKit.js"
import { PublicForms } from "./PublicForms.js"

describe("PublicForms.createDraft", () => {
  it.effect("a new key creates a draft of the schema's event, with only the schema's slugs", () =>
    inWorld(Effect.gen(function*() {
      const raw = JSON.parse(`{"email":"a@b.nl","__proto__":{"x":1},"constructor":"c","status":"submitted","id":"x"}`) as Record<string, unknown>
      const { created, submission } = (yield* (yield* PublicForms).createDraft(seedTokens.volunteer, {
        idempotency_key: keyOf(1),
        values: raw
      }, ip)).value
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
      const { submission } = (yield* (yield* PublicForms).createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1) }, ip)).value
      expect({ ...submission.values }).toEqual({})
    })))

  it.effect("a second create with the same key returns the first draft, its values untouched", () =>
    inWorld(Effect.gen(function*() {
      const forms = yield* PublicForms
      const first = (yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1), values: body({ name: "Ada" }) }, ip)).value
      const again = (yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1), values: body({ name: "Bob", age: "x" }) }, ip)).value
      expect(again.created).toBe(false)
      expect(again.submission.id).toBe(first.submission.id)
      expect({ ...again.submission.values }).toEqual({ name: "Ada" })
    })))

  it.effect("the same key on another form creates that form's own draft", () =>
    inWorld(Effect.gen(function*() {
      const forms = yield* PublicForms
      const a = (yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1) }, ip)).value
      const b = (yield* forms.createDraft(seedTokens.registration, { idempotency_key: keyOf(1) }, ip)).value
      expect([a.created, b.created]).toEqual([true, true])
      expect(b.submission.schema_id).toBe(seedIds.registration)
    })))

  it.effect("the previous token inside the grace window reaches the same drafts", () =>
    inWorld(Effect.gen(function*() {
      const forms = yield* PublicForms
      const a = (yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1) }, ip)).value
      const b = (yield* forms.createDraft(seedTokens.volunteerPrevious, { idempotency_key: keyOf(1) }, ip)).value
      expect([b.created, b.submission.id]).toEqual([false, a.submission.id])
    })))

  it.effect("an unknown or unpublished token → FormNotFound, nothing written", () =>
    inWorld(Effect.gen(function*() {
      const forms = yield* PublicForms
      const tags = yield* Effect.all([
        Effect.flip(forms.createDraft("tok-unknown-000000001", { idempotency_key: keyOf(1) }, ip)),
        Effect.flip(forms.createDraft(seedTokens.draft, { idempotency_key: keyOf(1) }, ip)),
        Effect.flip(forms.createDraft(seedTokens.advance, { idempotency_key: keyOf(1) }, ip))
      ])
      expect(tags.map((e) => e._tag)).toEqual(["FormNotFound", "FormNotFound", "FormNotFound"])
      expect(yield* (yield* InMemoryStore).submissions).toEqual([])
    })))

  it.effect.each([
    { case: "closed", token: seedTokens.closed },
    { case: "not yet open", token: seedTokens.future }
  ])("a new key on a form that is $case → FormClosed, nothing written", ({ token }) =>
    inWorld(Effect.gen(function*() {
      const error = yield* reasonOf((yield* PublicForms).createDraft(token, { idempotency_key: keyOf(1) }, ip))
      expect(error._tag).toBe("FormClosed")
      expect(yield* (yield* InMemoryStore).submissions).toEqual([])
    })))

  it.effect("FormClosed comes before the values: a closed form with invalid values is closed", () =>
    inWorld(Effect.gen(function*() {
      const error = yield* reasonOf((yield* PublicForms).createDraft(seedTokens.closed, {
        idempotency_key: keyOf(1),
        values: body({ email: "nope" })
      }, ip))
      expect(error._tag).toBe("FormClosed")
    })))

  it.effect("a replay answers the stored draft after the form closed", () =>
    inWorld(Effect.gen(function*() {
      const forms = yield* PublicForms
      const first = (yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1) }, ip)).value
      yield* TestClock.setTime(Date.parse("2028-01-01T00:00:00.000Z"))
      const again = (yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1), values: body({ email: "bad" }) }, ip)).value
      expect([again.created, again.submission.id]).toEqual([false, first.submission.id])
    })))

  it.effect("a replay of a submitted key answers the submitted submission, even when closed", () =>
    inWorld(Effect.gen(function*() {
      const forms = yield* PublicForms
      const { submission } = (yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1), values: body(validVolunteer()) }, ip)).value
      yield* forms.submit(seedTokens.volunteer, submission.id, body(), ip)
      yield* TestClock.setTime(Date.parse("2028-01-01T00:00:00.000Z"))
      const again = (yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1) }, ip)).value
      expect([again.created, again.submission.status, again.submission.id]).toEqual([false, "submitted", submission.id])
    })))

  it.effect("values are checked with relaxed rules: required is not, the other rules are; a failure writes nothing", () =>
    inWorld(Effect.gen(function*() {
      const forms = yield* PublicForms
      const ok = (yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1), values: body({ shirt: "S" }) }, ip)).value
      expect(ok.created).toBe(true)
      const refused = yield* Effect.flip(forms.createDraft(seedTokens.volunteer, {
        idempotency_key: keyOf(2),
        values: body({ email: "not-an-email", shirt: "XXL", unknown: "dropped" })
      }, ip))
      if (refused._tag !== "Refused") return expect.fail(`expected Refused, got ${refused._tag}`)
      const error = refused.reason
      expect(error._tag).toBe("ValidationFailed")
      if (error._tag !== "ValidationFailed") return
      expect(Object.keys(error.fields).sort()).toEqual(["email", "shirt"])
      expect(error.fields["email"]?.map((e) => e.rule)).toEqual(["email"])
      expect(error.fields["shirt"]?.map((e) => e.rule)).toEqual(["in"])
      // Create counts against the write limit (it used to carry no state): the second write of this client.
      expect(refused.rateLimit).toEqual({ policy: "write", limit: 600, window_seconds: 3600, remaining: 598, reset_seconds: 3600 })
      expect((yield* (yield* InMemoryStore).submissions).length).toBe(1)
    })))

  it.effect("a value already submitted on a unique field → ValidationFailed `unique` on create", () =>
    inWorld(Effect.gen(function*() {
      const forms = yield* PublicForms
      const { submission } = (yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1), values: body(validVolunteer("Ada@Example.org")) }, ip)).value
      yield* forms.submit(seedTokens.volunteer, submission.id, body(), ip)
      const error = yield* reasonOf(forms.createDraft(seedTokens.volunteer, {
        idempotency_key: keyOf(2),
        values: body({ email: " ada@example.ORG " })
      }, ip))
      expect(error).toMatchObject({ _tag: "ValidationFailed", fields: { email: [{ rule: "unique" }] } })
    })))

  it.effect("a draft holding a unique value does not block another draft (only submitted values count)", () =>
    inWorld(Effect.gen(function*() {
      const forms = yield* PublicForms
      yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1), values: body({ email: "a@b.nl" }) }, ip)
      const second = (yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(2), values: body({ email: "a@b.nl" }) }, ip)).value
      expect(second.created).toBe(true)
    })))

  it.effect("a store that cannot be reached → Unavailable", () =>
    inWorld(Effect.gen(function*() {
      yield* (yield* InMemoryStore).setUnavailable("down")
      const error = yield* Effect.flip((yield* PublicForms).createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1) }, ip))
      expect(error._tag).toBe("Unavailable")
    })))
})

describe("the write limit on create", () => {
  const limited = { config: { writeLimitPerHour: 3 } }
  const writeKey = (client: Client = ip) => `write:${seedIds.volunteer}:${client.address}`

  it.effect("a create carries the write limit's state; past the limit it is Refused(RateLimited) and writes nothing", () =>
    inWorld(
      Effect.gen(function*() {
        const forms = yield* PublicForms
        const store = yield* InMemoryStore
        const first = yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1) }, ip)
        expect(first.rateLimit).toEqual({ policy: "write", limit: 3, window_seconds: 3600, remaining: 2, reset_seconds: 3600 })
        yield* TestClock.adjust(60_000)
        yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(2) }, ip)
        const third = yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(3) }, ip)
        expect(third.rateLimit).toMatchObject({ remaining: 0, reset_seconds: 3540 })
        const refused = yield* Effect.flip(forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(4) }, ip))
        expect(refused).toMatchObject({
          _tag: "Refused",
          reason: { _tag: "RateLimited" },
          rateLimit: { policy: "write", limit: 3, window_seconds: 3600, remaining: 0, reset_seconds: 3540 }
        })
        // A refused create is not counted and writes nothing.
        expect((yield* store.hits(writeKey())).length).toBe(3)
        expect((yield* store.submissions).length).toBe(3)
      }),
      limited
    ))

  it.effect("a replay counts (the limit comes before the key lookup), and past the limit it is refused too", () =>
    inWorld(
      Effect.gen(function*() {
        const forms = yield* PublicForms
        const first = yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1) }, ip)
        const again = yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1) }, ip)
        expect([again.value.created, again.value.submission.id]).toEqual([false, first.value.submission.id])
        expect(again.rateLimit?.remaining).toBe(1)
        yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1) }, ip)
        expect((yield* reasonOf(forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1) }, ip)))._tag).toBe("RateLimited")
      }),
      limited
    ))

  it.effect("a create refused 409 or 422 counts, and carries the state", () =>
    inWorld(
      Effect.gen(function*() {
        const forms = yield* PublicForms
        // The closed form is another schema: its own budget.
        const closed = yield* Effect.flip(forms.createDraft(seedTokens.closed, { idempotency_key: keyOf(1) }, ip))
        expect(closed).toMatchObject({ _tag: "Refused", reason: { _tag: "FormClosed" }, rateLimit: { policy: "write", remaining: 2 } })
        const invalid = yield* Effect.flip(forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1), values: body({ email: "nope" }) }, ip))
        expect(invalid).toMatchObject({ _tag: "Refused", reason: { _tag: "ValidationFailed" }, rateLimit: { policy: "write", remaining: 2 } })
        yield* Effect.flip(forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1), values: body({ email: "nope" }) }, ip))
        expect((yield* Effect.flip(forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1), values: body({ email: "nope" }) }, ip))))
          .toMatchObject({ _tag: "Refused", reason: { _tag: "ValidationFailed" }, rateLimit: { remaining: 0 } })
        expect((yield* reasonOf(forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1) }, ip)))._tag).toBe("RateLimited")
      }),
      limited
    ))

  it.effect("an unknown or unpublished token (404) is not counted", () =>
    inWorld(
      Effect.gen(function*() {
        const forms = yield* PublicForms
        const store = yield* InMemoryStore
        for (let i = 0; i < 5; i++) {
          expect((yield* Effect.flip(forms.createDraft("tok-unknown-000000001", { idempotency_key: keyOf(i) }, ip)))._tag).toBe("FormNotFound")
          expect((yield* Effect.flip(forms.createDraft(seedTokens.draft, { idempotency_key: keyOf(i) }, ip)))._tag).toBe("FormNotFound")
        }
        expect([...store.data.hits.keys()]).toEqual([])
        const ok = yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1) }, ip)
        expect(ok.rateLimit?.remaining).toBe(2)
      }),
      limited
    ))

  it.effect("the budget is per schema and client: a rotated token shares it, another form or client has its own", () =>
    inWorld(
      Effect.gen(function*() {
        const forms = yield* PublicForms
        const store = yield* InMemoryStore
        const other = clientAt("10.0.0.2")
        yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1) }, ip)
        yield* forms.createDraft(seedTokens.volunteerPrevious, { idempotency_key: keyOf(2) }, ip)
        yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(3) }, ip)
        expect((yield* reasonOf(forms.createDraft(seedTokens.volunteerPrevious, { idempotency_key: keyOf(4) }, ip)))._tag).toBe("RateLimited")
        expect((yield* forms.createDraft(seedTokens.registration, { idempotency_key: keyOf(5) }, ip)).rateLimit?.remaining).toBe(2)
        expect((yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(6) }, other)).rateLimit?.remaining).toBe(2)
        expect((yield* store.hits(writeKey())).length).toBe(3)
        expect((yield* store.hits(writeKey(other))).length).toBe(1)
        expect((yield* store.hits(`write:${seedIds.registration}:${ip.address}`)).length).toBe(1)
        // The submit limit is another budget.
        expect(yield* store.hits(`submit:${seedIds.volunteer}:${ip.address}`)).toEqual([])
      }),
      limited
    ))

  it.effect("an exempt client is never counted and gets no state", () =>
    inWorld(
      Effect.gen(function*() {
        const forms = yield* PublicForms
        const store = yield* InMemoryStore
        const exempt = clientAt("10.0.0.9", { exempt: true })
        for (let i = 0; i < 5; i++) {
          const answer = yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(i) }, exempt)
          expect([answer.value.created, answer.rateLimit]).toEqual([true, undefined])
        }
        const refused = yield* Effect.flip(forms.createDraft(seedTokens.closed, { idempotency_key: keyOf(1) }, exempt))
        expect(refused).toMatchObject({ _tag: "Refused", reason: { _tag: "FormClosed" }, rateLimit: undefined })
        expect([...store.data.hits.keys()]).toEqual([])
      }),
      limited
    ))
})
