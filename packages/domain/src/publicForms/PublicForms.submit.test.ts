import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { clientAt } from "../limits/LimitPolicy.js"
import { seedIds, seedTokens } from "../memory/conformanceSeed.js"
import { InMemoryStore } from "../memory/InMemoryStore.js"
import {
  body,
  inWorld,
  ip,
  keyOf,
  reasonOf,
  seedNowMs,
  validVolunteer
} from "../testing/publicForms/publicFormsTestKit.js"
import { PublicForms } from "./PublicForms.js"

const draftOn = (token: string, values: Record<string, unknown> = {}, n = 1) =>
  Effect.gen(function*() {
    const forms = yield* PublicForms
    return (yield* forms.createDraft(token, { idempotency_key: keyOf(n), values: body(values) }, ip)).value.submission
  })

describe("PublicForms.submit", () => {
  it.effect("merges the body over the saved values, stores exactly that map and records one event", () =>
    inWorld(Effect.gen(function*() {
      const forms = yield* PublicForms
      const store = yield* InMemoryStore
      const draft = yield* draftOn(seedTokens.volunteer, { email: "Ada@Example.org", shirt: "S" })
      yield* forms.save(seedTokens.volunteer, draft.id, body({ name: "Ada", nickname: " ada " }), ip)
      yield* TestClock.adjust(1_234)
      const raw = JSON.parse(`{"shirt":"M","__proto__":{"x":1},"status":"draft","id":"other"}`) as Record<string, unknown>
      const { rateLimit, value: submission } = yield* forms.submit(seedTokens.volunteer, draft.id, raw, ip)

      const expected = { email: "Ada@Example.org", shirt: "M", name: "Ada", nickname: " ada " }
      expect({ ...submission.values }).toEqual(expected)
      expect([submission.status, submission.submitted_at, submission.auto_save_count]).toEqual(["submitted", seedNowMs + 1_234, 1])
      expect(rateLimit).toEqual({ policy: "submit", limit: 10, window_seconds: 3600, remaining: 9, reset_seconds: 3600 })

      const outbox = yield* store.outbox
      expect(outbox.length).toBe(1)
      expect(outbox[0]?.type).toBe("submission.submitted")
      expect(outbox[0]?.payload).toEqual({
        submission_id: draft.id,
        schema_id: seedIds.volunteer,
        organisation_id: "org-conf",
        event_id: seedIds.festival,
        values: expected,
        submitted_at: new Date(seedNowMs + 1_234).toISOString(),
        language: "en"
      })
      const claims = (yield* store.claims).map((c) => [c.slug, c.normalized]).sort()
      expect(claims).toEqual([["email", "ada@example.org"], ["nickname", "ada"]])
    })))

  it.effect("an empty body submits what was saved when every required value is there", () =>
    inWorld(Effect.gen(function*() {
      const forms = yield* PublicForms
      const draft = yield* draftOn(seedTokens.volunteer, validVolunteer())
      const { value: submission } = yield* forms.submit(seedTokens.volunteer, draft.id, body(), ip)
      expect(submission.status).toBe("submitted")
    })))

  it.effect("the merged map is validated strictly: missing required values → 422 with the limiter state, nothing written", () =>
    inWorld(Effect.gen(function*() {
      const forms = yield* PublicForms
      const store = yield* InMemoryStore
      const draft = yield* draftOn(seedTokens.volunteer, { email: "a@b.nl" })
      const error = yield* Effect.flip(forms.submit(seedTokens.volunteer, draft.id, body({ shirt: "M" }), ip))
      expect(error).toMatchObject({
        _tag: "Refused",
        reason: { _tag: "ValidationFailed", fields: { name: [{ rule: "required" }] } },
        rateLimit: { policy: "submit", remaining: 9 }
      })
      expect((yield* store.submission(draft.id))?.status).toBe("draft")
      expect(yield* store.outbox).toEqual([])
    })))

  it.effect("a refused body is answered with every problem at once: its errors beside the merged map's strict ones", () =>
    inWorld(Effect.gen(function*() {
      const forms = yield* PublicForms
      const draft = yield* draftOn(seedTokens.volunteer, { name: "Ada", age: 17 })
      const sent = body({ email: "not-an-email", phone: "12", name: " " })
      const error = yield* reasonOf(forms.submit(seedTokens.volunteer, draft.id, sent, ip))
      expect(error._tag === "ValidationFailed" ? { ...error.fields } : error).toEqual({
        // the body's own errors, and `required` on the name it blanked, in the form's field order
        email: [{ rule: "email", message: "Must be a valid email address." }],
        name: [{ rule: "required", message: "This field is required." }],
        phone: [{ rule: "phone", message: "Must be a valid phone number of 7 to 15 digits." }]
      })
      expect(Object.keys(error._tag === "ValidationFailed" ? error.fields : {})).toEqual(["email", "name", "phone"])
      expect((yield* (yield* InMemoryStore).submission(draft.id))?.status).toBe("draft")
    })))

  it.effect("a refused body still names the required fields it did not send (no second round of errors)", () =>
    inWorld(Effect.gen(function*() {
      const forms = yield* PublicForms
      const draft = yield* draftOn(seedTokens.volunteer)
      const error = yield* reasonOf(forms.submit(seedTokens.volunteer, draft.id, body({ age: "old" }), ip))
      expect(error).toMatchObject({
        _tag: "ValidationFailed",
        fields: { email: [{ rule: "required" }], name: [{ rule: "required" }], age: [{ rule: "numeric" }] }
      })
      if (error._tag === "ValidationFailed") expect(Object.keys(error.fields)).toEqual(["email", "name", "age"])
    })))

  it.effect("a value submitted before on a unique field → 422 `unique`", () =>
    inWorld(Effect.gen(function*() {
      const forms = yield* PublicForms
      const first = yield* draftOn(seedTokens.volunteer, validVolunteer("a@b.nl"), 1)
      yield* forms.submit(seedTokens.volunteer, first.id, body(), ip)
      const second = yield* draftOn(seedTokens.volunteer, { ...validVolunteer("other@b.nl") }, 2)
      const error = yield* reasonOf(forms.submit(seedTokens.volunteer, second.id, body({ email: "A@B.NL" }), ip))
      expect(error).toMatchObject({ _tag: "ValidationFailed", fields: { email: [{ rule: "unique" }] } })
    })))

  it.effect("checks in order: token → submission → rate limit → draft → open → values; later errors carry the state", () =>
    inWorld(
      Effect.gen(function*() {
        const forms = yield* PublicForms
        const draft = yield* draftOn(seedTokens.volunteer, { email: "a@b.nl" }, 1)
        const other = yield* draftOn(seedTokens.registration, {}, 2)
        const flip = (token: string, id: string) => Effect.flip(forms.submit(token, id, body({ email: "bad" }), ip))

        expect(yield* flip("tok-unknown-000000001", draft.id)).toMatchObject({ _tag: "FormNotFound" })
        expect(yield* flip(seedTokens.volunteer, "nope")).toMatchObject({ _tag: "SubmissionNotFound" })
        expect(yield* flip(seedTokens.volunteer, other.id)).toMatchObject({ _tag: "SubmissionNotFound" })
        // 422 (counted: remaining 1)
        expect(yield* flip(seedTokens.volunteer, draft.id)).toMatchObject({ _tag: "Refused", reason: { _tag: "ValidationFailed" }, rateLimit: { remaining: 1 } })
        // closed form: 409 FormClosed before the values (counted: remaining 0)
        yield* (yield* InMemoryStore).updateSchema(seedIds.volunteer, (s) => ({ ...s, closes_at: seedNowMs }))
        expect(yield* flip(seedTokens.volunteer, draft.id)).toMatchObject({ _tag: "Refused", reason: { _tag: "FormClosed" }, rateLimit: { remaining: 0 } })
        // rate limit before the state and the form
        const limited = yield* flip(seedTokens.volunteer, draft.id)
        expect(limited).toMatchObject({ _tag: "Refused", reason: { _tag: "RateLimited" }, rateLimit: { policy: "submit", limit: 2, remaining: 0 } })
      }),
      { config: { submitLimitPerHour: 2 } }
    ))

  it.effect("a submitted submission → 409 AlreadySubmitted with the state; nothing changes", () =>
    inWorld(Effect.gen(function*() {
      const forms = yield* PublicForms
      const draft = yield* draftOn(seedTokens.volunteer, validVolunteer())
      const first = yield* forms.submit(seedTokens.volunteer, draft.id, body(), ip)
      const again = yield* Effect.flip(forms.submit(seedTokens.volunteer, draft.id, body({ name: "Bob" }), ip))
      expect(again).toMatchObject({ _tag: "Refused", reason: { _tag: "AlreadySubmitted" }, rateLimit: { remaining: 8 } })
      const stored = yield* (yield* InMemoryStore).submission(draft.id)
      expect({ ...stored?.values }).toEqual({ ...first.value.values })
      expect((yield* (yield* InMemoryStore).outbox).length).toBe(1)
    })))

  it.effect("a form closed after the draft was made → FormClosed on submit", () =>
    inWorld(Effect.gen(function*() {
      const forms = yield* PublicForms
      const draft = yield* draftOn(seedTokens.volunteer, validVolunteer())
      yield* TestClock.setTime(Date.parse("2027-12-31T00:00:00.000Z"))
      expect(yield* reasonOf(forms.submit(seedTokens.volunteer, draft.id, body(), ip))).toMatchObject({ _tag: "FormClosed" })
    })))
})

describe("the submit rate limit", () => {
  const limited = { config: { submitLimitPerHour: 3 } }

  it.effect("404s do not count; 409 and 422 do; the next one is refused with Retry-After from the oldest", () =>
    inWorld(
      Effect.gen(function*() {
        const forms = yield* PublicForms
        const draft = yield* draftOn(seedTokens.volunteer, { email: "a@b.nl" })
        for (let i = 0; i < 5; i++) {
          yield* Effect.flip(forms.submit("tok-unknown-000000001", draft.id, body(), ip))
          yield* Effect.flip(forms.submit(seedTokens.volunteer, "no-such-submission", body(), ip))
        }
        const first = yield* Effect.flip(forms.submit(seedTokens.volunteer, draft.id, body(), ip))
        expect(first).toMatchObject({ _tag: "Refused", reason: { _tag: "ValidationFailed" }, rateLimit: { remaining: 2, reset_seconds: 3600 } })
        yield* TestClock.adjust(600_000)
        yield* forms.save(seedTokens.volunteer, draft.id, body({ name: "Ada" }), ip)
        const ok = yield* forms.submit(seedTokens.volunteer, draft.id, body(), ip)
        expect(ok.rateLimit).toEqual({ policy: "submit", limit: 3, window_seconds: 3600, remaining: 1, reset_seconds: 3000 })
        yield* TestClock.adjust(600_000)
        const conflict = yield* Effect.flip(forms.submit(seedTokens.volunteer, draft.id, body(), ip))
        expect(conflict).toMatchObject({ _tag: "Refused", reason: { _tag: "AlreadySubmitted" }, rateLimit: { remaining: 0, reset_seconds: 2400 } })
        yield* TestClock.adjust(1_500)
        const refused = yield* Effect.flip(forms.submit(seedTokens.volunteer, draft.id, body(), ip))
        expect(refused).toMatchObject({ _tag: "Refused", reason: { _tag: "RateLimited" }, rateLimit: { remaining: 0, reset_seconds: 2399 } })
      }),
      limited
    ))

  it.effect("refused requests do not count: the window slides from the counted ones", () =>
    inWorld(
      Effect.gen(function*() {
        const forms = yield* PublicForms
        const draft = yield* draftOn(seedTokens.volunteer, { email: "a@b.nl" })
        const attempt = Effect.flip(forms.submit(seedTokens.volunteer, draft.id, body(), ip))
        const reason = reasonOf(forms.submit(seedTokens.volunteer, draft.id, body(), ip))
        yield* attempt
        yield* TestClock.adjust(1_800_000)
        yield* attempt
        yield* attempt
        for (let i = 0; i < 10; i++) expect((yield* reason)._tag).toBe("RateLimited")
        yield* TestClock.adjust(1_800_000)
        expect(yield* attempt).toMatchObject({ _tag: "Refused", reason: { _tag: "ValidationFailed" }, rateLimit: { remaining: 0, reset_seconds: 1800 } })
        expect((yield* reason)._tag).toBe("RateLimited")
      }),
      limited
    ))

  it.effect("the budget is per schema and client IP: a rotated token shares it, another IP has its own", () =>
    inWorld(
      Effect.gen(function*() {
        const forms = yield* PublicForms
        const draft = yield* draftOn(seedTokens.volunteer, { email: "a@b.nl" })
        yield* Effect.flip(forms.submit(seedTokens.volunteer, draft.id, body(), ip))
        yield* Effect.flip(forms.submit(seedTokens.volunteerPrevious, draft.id, body(), ip))
        yield* Effect.flip(forms.submit(seedTokens.volunteer, draft.id, body(), ip))
        expect((yield* reasonOf(forms.submit(seedTokens.volunteerPrevious, draft.id, body(), ip)))._tag).toBe("RateLimited")
        expect((yield* reasonOf(forms.submit(seedTokens.volunteer, draft.id, body(), clientAt("10.0.0.2"))))._tag).toBe("ValidationFailed")
        const hits = yield* (yield* InMemoryStore).hits(`submit:${seedIds.volunteer}:${ip.address}`)
        expect(hits.length).toBe(3)
      }),
      limited
    ))

  it.effect("create and save do not count against the submit limit (they have the write limit)", () =>
    inWorld(
      Effect.gen(function*() {
        const forms = yield* PublicForms
        const store = yield* InMemoryStore
        const draft = yield* draftOn(seedTokens.volunteer)
        for (let i = 0; i < 5; i++) yield* forms.save(seedTokens.volunteer, draft.id, body({ name: `n${i}` }), ip)
        for (let i = 2; i < 7; i++) yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(i) }, ip)
        expect(yield* store.hits(`submit:${seedIds.volunteer}:${ip.address}`)).toEqual([])
        // They count against their own budget instead: 6 creates and 5 saves.
        expect((yield* store.hits(`write:${seedIds.volunteer}:${ip.address}`)).length).toBe(11)
      }),
      limited
    ))
})
