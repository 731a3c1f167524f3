/**
 * Conformance of `ShiftPlaces` (CONTRACT §22): a submit that asks for it answers a manage token which opens the
 * submission; giving a place up deletes it, takes the slot out of the values, records the event and promotes the
 * first waiting place in the same step; a refusal (no place, closed, unknown token) writes nothing; a new link
 * replaces the old one. Runs on memory, PGlite and PostgreSQL.
 */
import { describe, expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { placeCancelled } from "../../events/LifecycleEvents.js"
import { seedIds, shiftSlots } from "../../memory/conformanceSeed.js"
import { Submissions } from "../../publicForms/Submissions.js"
import { valuesWithoutSlot } from "../../shifts/cancelPlace.js"
import { RegistrationData } from "../../shifts/RegistrationData.js"
import { ShiftPlaces } from "../../shifts/ShiftPlaces.js"
import { type ConformanceIt, draftOf, makeFresh, plain, submitOf, values } from "../support.js"
import { placesFor } from "./placesConformance.js"

const actor = { organisation_id: seedIds.organisation, api_key_id: null }

export const shiftPlacesConformance = (it: ConformanceIt): void => {
  const fresh = makeFresh()
  /** A submitted submission holding `ids`, with its manage token. */
  const submitted = (ids: ReadonlyArray<string>) =>
    Effect.gen(function*() {
      const submissions = yield* Submissions
      const { submission } = yield* submissions.createOrGet(draftOf(seedIds.shiftsForm, fresh("key-manage")))
      const done = yield* submissions.submit({
        ...submitOf(submission, values({ shifts: ids, note: "kept" })),
        places: placesFor(ids),
        manage: true
      })
      expect(typeof done.manage_token).toBe("string")
      return { id: done.id, token: done.manage_token ?? "" }
    })
  const cancelOf = (token: string, submissionId: string, slotId: string, decide = (_: unknown) => true) => ({
    token,
    slot_id: slotId,
    at: Date.parse("2027-07-02T10:00:00.000Z"),
    decide,
    values: (stored: Parameters<typeof valuesWithoutSlot>[0]) => valuesWithoutSlot(stored, ["shifts"], slotId),
    event: placeCancelled({ submission_id: submissionId, slot_id: slotId, schema_id: seedIds.shiftsForm, organisation_id: seedIds.organisation })
  })
  const placesOf = (id: string) =>
    Effect.map(RegistrationData.use((data) => data.placesOf(id)), (places) => places.map((p) => [p.slot_id, p.status, p.position]))
  const storedValues = (id: string) =>
    Effect.map(Submissions.use((s) => s.findInSchema(seedIds.shiftsForm, id)), (found) => Option.map(found, (s) => plain(s.values)))

  describe("ShiftPlaces", () => {
    it.effect("a submit with manage answers a token that opens the submission; an unknown token opens nothing", () =>
      Effect.gen(function*() {
        const places = yield* ShiftPlaces
        const { id, token } = yield* submitted([shiftSlots.a])
        expect(yield* places.findManaged(token)).toEqual(Option.some({ submission_id: id, schema_id: seedIds.shiftsForm }))
        expect(Option.isNone(yield* places.findManaged(`${token}x`))).toBe(true)
        expect(Option.isNone(yield* places.findManaged(""))).toBe(true)
      }))

    it.effect("giving a confirmed place up promotes the first waiting one and takes the slot out of the values", () =>
      Effect.gen(function*() {
        const places = yield* ShiftPlaces
        const first = yield* submitted([shiftSlots.queue, shiftSlots.early])
        const second = yield* submitted([shiftSlots.queue])
        const third = yield* submitted([shiftSlots.queue])
        expect((yield* placesOf(first.id))[0]).toEqual([shiftSlots.early, "confirmed", null])
        const waiting = (yield* placesOf(second.id))[0]
        expect(waiting?.[1]).toBe("waitlisted")
        let seen: unknown
        yield* places.cancel(cancelOf(first.token, first.id, shiftSlots.queue, (place) => {
          seen = place
          return true
        }))
        expect(seen).toEqual({ status: "confirmed", starts_at: Date.parse("2027-09-04T08:00:00.000Z") })
        expect(yield* placesOf(first.id)).toEqual([[shiftSlots.early, "confirmed", null]])
        expect(yield* placesOf(second.id)).toEqual([[shiftSlots.queue, "confirmed", null]])
        expect((yield* placesOf(third.id))[0]?.[1]).toBe("waitlisted")
        expect(yield* storedValues(first.id)).toEqual(Option.some({ shifts: [shiftSlots.early], note: "kept" }))
        // The place is gone: giving it up again finds none.
        const again = yield* Effect.flip(places.cancel(cancelOf(first.token, first.id, shiftSlots.queue)))
        expect(again._tag).toBe("PlaceNotFound")
      }))

    it.effect("a refused cancel writes nothing: closed, no place in the slot, an unknown token", () =>
      Effect.gen(function*() {
        const places = yield* ShiftPlaces
        const { id, token } = yield* submitted([shiftSlots.c])
        const closed = yield* Effect.flip(places.cancel(cancelOf(token, id, shiftSlots.c, () => false)))
        expect(closed._tag).toBe("CancelClosed")
        const none = yield* Effect.flip(places.cancel(cancelOf(token, id, shiftSlots.a)))
        expect(none._tag).toBe("PlaceNotFound")
        const unknownSlot = yield* Effect.flip(places.cancel(cancelOf(token, id, "slot-unknown")))
        expect(unknownSlot._tag).toBe("PlaceNotFound")
        const unknown = yield* Effect.flip(places.cancel(cancelOf(`${token}x`, id, shiftSlots.c)))
        expect(unknown._tag).toBe("ManageNotFound")
        expect(yield* placesOf(id)).toEqual([[shiftSlots.c, "confirmed", null]])
        expect(yield* storedValues(id)).toEqual(Option.some({ shifts: [shiftSlots.c], note: "kept" }))
      }))

    it.effect("a new manage link replaces the old one; another organisation's or an unknown submission is not found", () =>
      Effect.gen(function*() {
        const places = yield* ShiftPlaces
        const { id, token } = yield* submitted([shiftSlots.c])
        const renewed = yield* places.issueManageLink(actor, id, Date.parse("2027-07-02T10:00:00.000Z"))
        expect(renewed).not.toBe(token)
        expect(Option.isNone(yield* places.findManaged(token))).toBe(true)
        expect(Option.map(yield* places.findManaged(renewed), (m) => m.submission_id)).toEqual(Option.some(id))
        const other = yield* Effect.flip(places.issueManageLink({ organisation_id: "org-other", api_key_id: null }, id, 0))
        expect(other._tag).toBe("SubmissionNotFound")
        const unknown = yield* Effect.flip(places.issueManageLink(actor, "00000000-0000-4000-8000-000000000000", 0))
        expect(unknown._tag).toBe("SubmissionNotFound")
      }))
  })
}
