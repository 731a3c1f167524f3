import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { FormsConfig } from "../FormsConfig.js"
import { seedTokens } from "../memory/conformanceSeed.js"
import { InMemory } from "../memory/InMemory.js"
import { InMemoryStore } from "../memory/InMemoryStore.js"
import { body, ip, keyOf, reasonOf, seedNowMs, validVolunteer } from "../testing/publicForms/publicFormsTestKit.js"
import { PublicFormsLive } from "./makePublicForms.js"
import { PublicForms } from "./PublicForms.js"
import { Submissions } from "./Submissions.js"

/**
 * A Submissions port whose `submit` lets `interloper` run first on each of the first `times` calls: a
 * save that lands between the use case's read and its submit, deterministically.
 */
const withInterloper = (times: number, interloper: (id: string) => Record<string, unknown>) => {
  const ports = InMemory.layer()
  const wrapped = Layer.effect(
    Submissions,
    Effect.gen(function*() {
      const inner = yield* Submissions
      let calls = 0
      return Submissions.of({
        ...inner,
        submit: (command) =>
          Effect.gen(function*() {
            calls += 1
            if (calls <= times) yield* inner.save(command.schema_id, command.id, body(interloper(command.id)))
            return yield* inner.submit(command)
          })
      })
    })
  ).pipe(Layer.provide(ports))
  return PublicFormsLive.layer.pipe(
    Layer.provide(wrapped),
    Layer.provideMerge(Layer.mergeAll(ports, FormsConfig.layer()))
  )
}

const run = <A, E>(layer: ReturnType<typeof withInterloper>, test: Effect.Effect<A, E, PublicForms | InMemoryStore>) =>
  Effect.gen(function*() {
    yield* TestClock.setTime(seedNowMs)
    return yield* test
  }).pipe(Effect.provide(layer))

describe("PublicForms.submit after a save slipped in", () => {
  it.effect("reads again and submits the values stored now", () =>
    run(
      withInterloper(3, () => ({ note: "late" })),
      Effect.gen(function*() {
        const forms = yield* PublicForms
        const { submission } = (yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1), values: body(validVolunteer()) }, ip)).value
        const { value: done } = yield* forms.submit(seedTokens.volunteer, submission.id, body({ shirt: "L" }), ip)
        expect({ ...done.values }).toEqual({ ...validVolunteer(), shirt: "L", note: "late" })
        expect(done.auto_save_count).toBe(3)
      })
    ))

  it.effect("validates again: a save that emptied a required value makes the submit fail 422", () =>
    run(
      withInterloper(1, () => ({ name: "" })),
      Effect.gen(function*() {
        const forms = yield* PublicForms
        const { submission } = (yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1), values: body(validVolunteer()) }, ip)).value
        const error = yield* reasonOf(forms.submit(seedTokens.volunteer, submission.id, body(), ip))
        expect(error).toMatchObject({ _tag: "ValidationFailed", fields: { name: [{ rule: "required" }] } })
        expect((yield* (yield* InMemoryStore).submission(submission.id))?.status).toBe("draft")
      })
    ))

  it.effect("gives up after 50 rounds with Unavailable, nothing submitted", () =>
    run(
      withInterloper(1_000, () => ({ note: "again" })),
      Effect.gen(function*() {
        const forms = yield* PublicForms
        const { submission } = (yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1), values: body(validVolunteer()) }, ip)).value
        const error = yield* Effect.flip(forms.submit(seedTokens.volunteer, submission.id, body(), ip))
        expect(error._tag).toBe("Unavailable")
        const stored = yield* (yield* InMemoryStore).submission(submission.id)
        expect([stored?.status, stored?.auto_save_count]).toEqual(["draft", 50])
      })
    ))
})
