import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { clientAt } from "../limits/LimitPolicy.js"
import { seedIds, seedTokens, wideSlugs } from "../memory/conformanceSeed.js"
import { InMemoryStore } from "../memory/InMemoryStore.js"
import { body, inWorld, ip, keyOf, validVolunteer } from "../testing/publicForms/publicFormsTestKit.js"
import { PublicForms } from "./PublicForms.js"

const unbounded = { concurrency: "unbounded" } as const
const yieldTurns = (turns: number) => Effect.forEach(Array.from({ length: turns }), () => Effect.yieldNow, { discard: true })
const generous = { config: { submitLimitPerHour: 1_000 } }

describe("PublicForms under concurrency", () => {
  it.effect("50 parallel creates with one key: one draft, exactly one answer says created", () =>
    inWorld(Effect.gen(function*() {
      const forms = yield* PublicForms
      const results = yield* Effect.all(
        Array.from({ length: 50 }, () => forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1), values: body({ name: "Ada" }) }, ip)),
        unbounded
      )
      expect(results.filter((r) => r.value.created).length).toBe(1)
      expect(new Set(results.map((r) => r.value.submission.id)).size).toBe(1)
      expect((yield* (yield* InMemoryStore).submissions).length).toBe(1)
    })))

  it.effect("20 parallel submits of one draft: exactly one succeeds, the others are AlreadySubmitted", () =>
    inWorld(
      Effect.gen(function*() {
        const forms = yield* PublicForms
        const { submission } = (yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1), values: body(validVolunteer()) }, ip)).value
        const outcomes = yield* Effect.all(
          Array.from({ length: 20 }, (_, i) => Effect.result(forms.submit(seedTokens.volunteer, submission.id, body({ shirt: i % 2 === 0 ? "S" : "L" }), ip))),
          unbounded
        )
        expect(outcomes.filter((o) => o._tag === "Success").length).toBe(1)
        for (const o of outcomes) if (o._tag === "Failure") expect(o.failure).toMatchObject({ _tag: "Refused", reason: { _tag: "AlreadySubmitted" } })
        expect((yield* (yield* InMemoryStore).outbox).length).toBe(1)
      }),
      generous
    ))

  it.effect("8 drafts submitting one unique value in parallel: one succeeds, the others get 422 `unique`", () =>
    inWorld(
      Effect.gen(function*() {
        const forms = yield* PublicForms
        const drafts = yield* Effect.all(
          Array.from({ length: 8 }, (_, i) => forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(i), values: body({ name: "Ada" }) }, ip)),
          unbounded
        )
        const outcomes = yield* Effect.all(
          drafts.map(({ value: { submission } }, i) =>
            Effect.result(forms.submit(seedTokens.volunteer, submission.id, body({ email: i % 2 === 0 ? "same@b.nl" : "SAME@b.nl " }), clientAt(`10.0.0.${i}`)))
          ),
          unbounded
        )
        expect(outcomes.filter((o) => o._tag === "Success").length).toBe(1)
        for (const o of outcomes) {
          if (o._tag === "Failure") expect(o.failure).toMatchObject({ _tag: "Refused", reason: { _tag: "ValidationFailed", fields: { email: [{ rule: "unique" }] } } })
        }
        const stored = yield* (yield* InMemoryStore).submissions
        expect(stored.filter((s) => s.status === "submitted").length).toBe(1)
      }),
      generous
    ))

  it.effect("20 parallel saves of different slugs: every value kept, counter 20", () =>
    inWorld(Effect.gen(function*() {
      const forms = yield* PublicForms
      const { submission } = (yield* forms.createDraft(seedTokens.wide, { idempotency_key: keyOf(1) }, ip)).value
      const slugs = wideSlugs.slice(0, 20)
      yield* Effect.all(slugs.map((slug) => forms.save(seedTokens.wide, submission.id, body({ [slug]: `v-${slug}` }), ip)), unbounded)
      const stored = yield* (yield* InMemoryStore).submission(submission.id)
      expect(stored?.auto_save_count).toBe(20)
      expect({ ...stored?.values }).toEqual(Object.fromEntries(slugs.map((slug) => [slug, `v-${slug}`])))
    })))

  it.effect("100 saves racing one submit: the submitted values are exactly the validated ones, no save lost or slipped in", () =>
    inWorld(Effect.gen(function*() {
      const forms = yield* PublicForms
      const store = yield* InMemoryStore
      const { submission } = (yield* forms.createDraft(seedTokens.wide, { idempotency_key: keyOf(1) }, ip)).value
      // Half the saves start over the first dozen scheduler turns, landing before the submit's read or between
      // its read and its write (a conflict: it reads again); the other half come in after it. A save reaches its
      // write in as many scheduler turns as the submit (it looks the submission up and counts the write limit
      // first), so the submit starts two turns late: without that it would write before any save landed.
      const saves = wideSlugs.map((slug, i) =>
        Effect.result(Effect.andThen(
          yieldTurns(i < 50 ? Math.floor(i / 4) : 400 + i),
          forms.save(seedTokens.wide, submission.id, body({ [slug]: slug }), ip)
        ))
      )
      const submit = Effect.result(Effect.andThen(yieldTurns(2), forms.submit(seedTokens.wide, submission.id, body(), ip)))
      const [submitted, ...saved] = yield* Effect.all([submit, ...saves], unbounded)
      if (submitted === undefined || submitted._tag === "Failure") return expect.fail("the submit failed")

      const kept = wideSlugs.filter((_, i) => saved[i]?._tag === "Success")
      expect(kept.length).toBeGreaterThan(0)
      expect(kept.length).toBeLessThan(100)
      for (const outcome of saved) if (outcome._tag === "Failure") expect(outcome.failure).toMatchObject({ _tag: "Refused", reason: { _tag: "AlreadySubmitted" } })
      const stored = yield* store.submission(submission.id)
      expect(stored?.status).toBe("submitted")
      expect(Object.keys(stored?.values ?? {}).sort()).toEqual([...kept].sort())
      expect(stored?.auto_save_count).toBe(kept.length)
      expect({ ...submitted.success.value.values }).toEqual({ ...stored?.values })
      const [event] = yield* store.outbox
      expect(event?.payload["values"]).toEqual({ ...stored?.values })
      expect(event?.payload["schema_id"]).toBe(seedIds.wide)
    })))
})
