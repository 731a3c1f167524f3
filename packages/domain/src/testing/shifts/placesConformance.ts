/**
 * Conformance of places on time slots (CONTRACT §15): `RegistrationData` reads capacity and holders, and
 * `Submissions.submit` takes places atomically, asks the domain's decision on the slots as held, and writes
 * nothing when it refuses. Only the slots of the shifts festival (`shiftSlots`) are ever held.
 */
import { describe, expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { seedIds, shiftSlots } from "../../memory/conformanceSeed.js"
import { type PlacesRequest, Submissions } from "../../publicForms/Submissions.js"
import { type ChosenSlot, RegistrationData } from "../../shifts/RegistrationData.js"
import { checkSlotChoices, chosenSlotIds } from "../../shifts/slotChoices.js"
import { type ConformanceIt, draftOf, makeFresh, submitOf, values } from "../support.js"

const unbounded = { concurrency: "unbounded" } as const

/** The domain's own decision on one `shifts` field choosing `ids`, as the use case builds it. */
export const placesFor = (ids: ReadonlyArray<string>, max = Infinity): PlacesRequest => {
  const choices = [{ slug: "shifts", ids, min: -Infinity, max }]
  return {
    slot_ids: chosenSlotIds(choices),
    decide: (held) => checkSlotChoices(choices, held, seedIds.shifts, "taken", Date.parse("2027-01-01T00:00:00Z"))
  }
}

export const placesConformance = (it: ConformanceIt): void => {
  const fresh = makeFresh()
  const draft = Effect.gen(function*() {
    const submissions = yield* Submissions
    const { submission } = yield* submissions.createOrGet(draftOf(seedIds.shiftsForm, fresh("key-places")))
    return submission
  })
  const holders = (id: string) =>
    Effect.map(RegistrationData.use((data) => data.chosenSlots([id])), (slots) => slots[0]?.holders ?? -1)
  const submitWith = (ids: ReadonlyArray<string>) =>
    Effect.gen(function*() {
      const submissions = yield* Submissions
      const submission = yield* draft
      const command = { ...submitOf(submission, values({ shifts: ids })), places: placesFor(ids) }
      return yield* submissions.submit(command)
    })

  describe("RegistrationData: capacity and holders", () => {
    it.effect("chosenSlots answers the known ids with their parent event, capacity and holders", () =>
      Effect.gen(function*() {
        const data = yield* RegistrationData
        const slots = yield* data.chosenSlots([shiftSlots.b, shiftSlots.early, "slot-unknown"])
        const byId = new Map(slots.map((slot) => [slot.id, slot]))
        expect(slots.length).toBe(2)
        expect(byId.get(shiftSlots.b)).toMatchObject({
          event_id: seedIds.shiftsDay,
          parent_event_id: seedIds.shifts,
          date: "2027-09-01",
          start_time: "12:00",
          end_time: "16:00",
          capacity: 2
        })
        expect(byId.get(shiftSlots.early)).toMatchObject({ capacity: null, start_time: "01:00", end_time: "03:00" })
        expect(yield* data.chosenSlots([])).toEqual([])
      }))

    it.effect("timeSlots shows capacity and holders; a submit with places counts in both reads", () =>
      Effect.gen(function*() {
        const data = yield* RegistrationData
        const before = (yield* data.timeSlots([seedIds.shifts])).find((slot) => slot.id === shiftSlots.a)
        expect(before?.capacity).toBe(7)
        yield* submitWith([shiftSlots.a])
        const after = (yield* data.timeSlots([seedIds.shifts])).find((slot) => slot.id === shiftSlots.a)
        expect(after?.holders).toBe((before?.holders ?? 0) + 1)
        expect(yield* holders(shiftSlots.a)).toBe(after?.holders)
      }))
  })

  describe("Submissions.submit with places", () => {
    it.effect("decide sees the chosen slots with this submission counted; an accepted submit holds them", () =>
      Effect.gen(function*() {
        const submissions = yield* Submissions
        const submission = yield* draft
        const before = yield* holders(shiftSlots.c)
        let seen: ReadonlyArray<ChosenSlot> = []
        const ids = [shiftSlots.c, shiftSlots.early]
        const places: PlacesRequest = {
          slot_ids: chosenSlotIds([{ slug: "shifts", ids, min: 0, max: 9 }]),
          decide: (held) => {
            seen = held
            return undefined
          }
        }
        const done = yield* submissions.submit({ ...submitOf(submission, values({ shifts: ids })), places })
        expect(done.status).toBe("submitted")
        expect(seen.map((slot) => slot.id).sort()).toEqual([...ids].sort())
        // Named, for the `full` message.
        expect(seen.every((slot) => typeof slot.name === "string" && slot.name.length > 0)).toBe(true)
        expect(seen.find((slot) => slot.id === shiftSlots.c)?.holders).toBe(before + 1)
        expect(yield* holders(shiftSlots.c)).toBe(before + 1)
      }))

    it.effect("a refusal writes nothing: the submission stays a draft and no place is taken", () =>
      Effect.gen(function*() {
        const submissions = yield* Submissions
        const submission = yield* draft
        const before = yield* holders(shiftSlots.b)
        const refusal = { shifts: [{ rule: "overlap" as const, message: "no" }] }
        const places: PlacesRequest = { slot_ids: [shiftSlots.b], decide: () => refusal }
        const error = yield* Effect.flip(submissions.submit({ ...submitOf(submission, values({})), places }))
        expect(error._tag).toBe("SlotsRefused")
        if (error._tag === "SlotsRefused") expect(error.fields).toEqual(refusal)
        expect(yield* holders(shiftSlots.b)).toBe(before)
        const stored = yield* submissions.findInSchema(seedIds.shiftsForm, submission.id)
        expect(Option.map(stored, (s) => s.status)).toEqual(Option.some("draft"))
      }))

    it.effect("a slot of capacity 1: the second holder is refused `full`", () =>
      Effect.gen(function*() {
        if ((yield* holders(shiftSlots.night)) === 0) yield* submitWith([shiftSlots.night])
        const error = yield* Effect.flip(submitWith([shiftSlots.night]))
        expect(error._tag).toBe("SlotsRefused")
        if (error._tag === "SlotsRefused") expect(error.fields["shifts"]?.map((e) => e.rule)).toEqual(["full"])
        expect(yield* holders(shiftSlots.night)).toBe(1)
      }))

    it.effect("60 parallel submits on a slot of capacity 7: exactly 7 hold it, the others are refused `full`", () =>
      Effect.gen(function*() {
        const results = yield* Effect.all(
          Array.from({ length: 60 }, () => Effect.result(submitWith([shiftSlots.race]))),
          unbounded
        )
        const won = results.filter((r) => r._tag === "Success").length
        const full = results.filter((r) => r._tag === "Failure" && r.failure._tag === "SlotsRefused").length
        expect([won, full]).toEqual([7, 53])
        expect(yield* holders(shiftSlots.race)).toBe(7)
      }))

    it.effect("parallel submits choosing the same slots in different orders neither deadlock nor overbook", () =>
      Effect.gen(function*() {
        const before = yield* holders(shiftSlots.b)
        const orders = [[shiftSlots.b, shiftSlots.early], [shiftSlots.early, shiftSlots.b]]
        const results = yield* Effect.all(
          Array.from({ length: 20 }, (_, i) => Effect.result(submitWith(orders[i % 2] ?? []))),
          unbounded
        )
        const won = results.filter((r) => r._tag === "Success").length
        expect(won).toBe(Math.max(0, 2 - before))
        expect(results.every((r) => r._tag === "Success" || r.failure._tag === "SlotsRefused")).toBe(true)
        expect(yield* holders(shiftSlots.b)).toBe(Math.max(before, 2))
      }))
  })
}
