import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { clientAt } from "../limits/LimitPolicy.js"
import { seedTokens, shiftSlots } from "../memory/conformanceSeed.js"
import { InMemoryStore } from "../memory/InMemoryStore.js"
import { body, inWorld, ip, keyOf, reasonOf } from "../testing/publicForms/publicFormsTestKit.js"
import { PublicForms } from "./PublicForms.js"

const token = seedTokens.shifts
let counter = 0
/** A client of its own per submit, so the submit limit never speaks. */
const nextClient = () => clientAt(`10.9.${Math.floor(++counter / 250)}.${counter % 250}`)

const draftWith = (values: Record<string, unknown>, n: number) =>
  Effect.gen(function*() {
    const forms = yield* PublicForms
    return (yield* forms.createDraft(token, { idempotency_key: keyOf(n), values: body(values) }, nextClient())).value.submission
  })

const submitNew = (values: Record<string, unknown>, n: number) =>
  Effect.gen(function*() {
    const forms = yield* PublicForms
    const draft = yield* draftWith({ email: `v${n}@example.org` }, n)
    return yield* forms.submit(token, draft.id, body(values), nextClient())
  })

const rulesOf = (effect: Effect.Effect<unknown, unknown, PublicForms | InMemoryStore>) =>
  Effect.map(reasonOf(effect), (error) => {
    const fields = (error as { readonly fields?: Record<string, ReadonlyArray<{ readonly rule: string }>> }).fields ?? {}
    return Object.fromEntries(Object.entries(fields).map(([slug, list]) => [slug, list.map((e) => e.rule)]))
  })

const remainingOf = (id: string) =>
  Effect.gen(function*() {
    const forms = yield* PublicForms
    return (yield* forms.timeSlots(token)).find((slot) => slot.id === id)?.remaining
  })

describe("PublicForms: time_slots fields and places (CONTRACT §15)", () => {
  it.effect("the time-slots list shows capacity and remaining; a submit takes a place", () =>
    inWorld(Effect.gen(function*() {
      const forms = yield* PublicForms
      const listed = yield* forms.timeSlots(token)
      expect(listed.map((s) => [s.id, s.capacity, s.remaining])).toEqual([
        [shiftSlots.a, 7, 7],
        [shiftSlots.c, null, null],
        [shiftSlots.b, 2, 2],
        [shiftSlots.night, 1, 1],
        [shiftSlots.early, null, null],
        [shiftSlots.race, 7, 7],
        [shiftSlots.queue, 1, 1]
      ])
      const { value } = yield* submitNew({ shifts: [shiftSlots.a, shiftSlots.b] }, 1)
      expect(value.status).toBe("submitted")
      expect([yield* remainingOf(shiftSlots.a), yield* remainingOf(shiftSlots.b)]).toEqual([6, 1])
    })))

  it.effect("saves check invalid, in, max and overlap (never full); an empty value fails only required at submit", () =>
    inWorld(Effect.gen(function*() {
      const forms = yield* PublicForms
      const draft = yield* draftWith({}, 1)
      const save = (shifts: unknown) => rulesOf(forms.save(token, draft.id, body({ shifts }), ip))
      expect(yield* save(3)).toEqual({ shifts: ["invalid"] })
      expect(yield* save([shiftSlots.a, shiftSlots.a])).toEqual({ shifts: ["invalid"] })
      expect(yield* save(["slot-other"])).toEqual({ shifts: ["in"] })
      expect(yield* save([shiftSlots.a, shiftSlots.b, shiftSlots.early, shiftSlots.race])).toEqual({ shifts: ["max"] })
      expect(yield* save([shiftSlots.a, shiftSlots.c])).toEqual({ shifts: ["overlap"] })
      expect(yield* save([shiftSlots.night, shiftSlots.early])).toEqual({ shifts: ["overlap"] })
      expect(yield* save(["slot-unknown", shiftSlots.a, shiftSlots.c, shiftSlots.b])).toEqual({ shifts: ["in", "max", "overlap"] })
      // Touching slots, a single string, and an empty value pass a save.
      expect((yield* forms.save(token, draft.id, body({ shifts: [shiftSlots.a, shiftSlots.b] }), ip)).value.values["shifts"])
        .toEqual([shiftSlots.a, shiftSlots.b])
      yield* forms.save(token, draft.id, body({ shifts: shiftSlots.a }), ip)
      yield* forms.save(token, draft.id, body({ shifts: [] }), ip)
      expect(yield* rulesOf(forms.submit(token, draft.id, body({ email: "a@example.org" }), nextClient())))
        .toEqual({ shifts: ["required"] })
    })))

  it.effect("full at submit, reported beside other fields' errors; nothing is written", () =>
    inWorld(Effect.gen(function*() {
      const forms = yield* PublicForms
      const store = yield* InMemoryStore
      yield* submitNew({ shifts: [shiftSlots.night] }, 1)
      expect(yield* remainingOf(shiftSlots.night)).toBe(0)
      // No other error: the atomic step refuses the place.
      expect(yield* rulesOf(submitNew({ shifts: [shiftSlots.night] }, 2))).toEqual({ shifts: ["full"] })
      // Another field fails too: full is read and reported beside it.
      const draft = yield* draftWith({}, 3)
      expect(yield* rulesOf(forms.submit(token, draft.id, body({ email: "nope", shifts: [shiftSlots.night] }), nextClient())))
        .toEqual({ email: ["email"], shifts: ["full"] })
      const submitted = (yield* store.submissions).filter((s) => s.status === "submitted")
      expect(submitted.length).toBe(1)
      expect(yield* remainingOf(shiftSlots.night)).toBe(0)
    })))

  it.effect("50 parallel submits on a slot of capacity 7: exactly 7 succeed, the others answer 422 full", () =>
    inWorld(Effect.gen(function*() {
      const results = yield* Effect.all(
        Array.from({ length: 50 }, (_, i) => Effect.result(submitNew({ shifts: [shiftSlots.race] }, 100 + i))),
        { concurrency: "unbounded" }
      )
      expect(results.filter((r) => r._tag === "Success").length).toBe(7)
      const failures = yield* Effect.all(
        results.filter((r) => r._tag === "Failure").map((r) => rulesOf(Effect.fail(r.failure)))
      )
      expect(failures.length).toBe(43)
      expect(failures.every((fields) => JSON.stringify(fields) === JSON.stringify({ shifts: ["full"] }))).toBe(true)
      expect(yield* remainingOf(shiftSlots.race)).toBe(0)
    })))

  it.effect("a deleted submission gives its places back", () =>
    inWorld(Effect.gen(function*() {
      const store = yield* InMemoryStore
      const { value } = yield* submitNew({ shifts: [shiftSlots.night] }, 1)
      expect(yield* remainingOf(shiftSlots.night)).toBe(0)
      yield* Effect.sync(() => store.data.submissions.delete(value.id))
      expect(yield* remainingOf(shiftSlots.night)).toBe(1)
    })))
})
