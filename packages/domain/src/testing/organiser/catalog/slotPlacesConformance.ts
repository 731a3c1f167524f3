/**
 * The conformance suite of a held slot (CONTRACT §15 with §12): a time slot on which a submitted submission holds
 * a place counts it in `holders` and cannot be deleted (IN_USE, nothing written); once the submission is gone
 * the slot is deleted. Runs on the in-memory organiser built over the shared store, PGlite and PostgreSQL.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import type { OrganiserAccess } from "../../../organiser/catalog/OrganiserAccess.js"
import { OrganiserCatalog } from "../../../organiser/catalog/OrganiserCatalog.js"
import { failureTag, first, newActor, t0 } from "../organiserTestSupport.js"
import { SlotPlaceFixture } from "./SlotPlaceFixture.js"

export const slotPlacesConformance = (
  name: string,
  makeLayer: () => Layer.Layer<OrganiserAccess | OrganiserCatalog | SlotPlaceFixture, unknown>,
  options: { readonly timeout?: number } = {}
): void => {
  describe(name, () => {
    layer(makeLayer(), { timeout: options.timeout ?? 60_000, excludeTestServices: true })("held slots", (it) => {
      it.effect("a slot held by a submitted submission counts it and is IN_USE; deleted once the submission is gone", () =>
        Effect.gen(function*() {
          const catalog = yield* OrganiserCatalog
          const fx = yield* SlotPlaceFixture
          const a = yield* newActor
          const event = yield* catalog.createEvent(a, { name: "Shifts", parent_event_id: null }, t0)
          const slot = { date: "2027-09-01", start_time: "08:00", end_time: "12:00", capacity: 2 }
          const held = yield* catalog.createTimeSlot(a, event.id, { ...slot, name: "Bar" }, t0)
          const free = yield* catalog.createTimeSlot(a, event.id, { ...slot, name: "Gate" }, t0)
          const submission = yield* fx.hold(a, held.id)
          const second = yield* fx.hold(a, held.id)
          expect(Option.getOrThrow(yield* catalog.findTimeSlot(a.organisation_id, held.id)).holders).toBe(2)
          expect((yield* catalog.listTimeSlots(a.organisation_id, event.id, first())).items.map((s) => [s.name, s.holders]))
            .toEqual([["Bar", 2], ["Gate", 0]])
          expect(yield* failureTag(catalog.deleteTimeSlot(a, held.id, t0 + 1))).toBe("InUse")
          expect(Option.isSome(yield* catalog.findTimeSlot(a.organisation_id, held.id))).toBe(true)
          // The slot that nobody holds goes; the refused delete wrote no audit entry.
          yield* catalog.deleteTimeSlot(a, free.id, t0 + 2)
          const deleted = (yield* catalog.listAudit(a.organisation_id, first())).items.filter((e) => e.action === "time_slot.deleted")
          expect(deleted.map((e) => e.resource_id)).toEqual([free.id])
          yield* fx.release(submission)
          expect(Option.getOrThrow(yield* catalog.findTimeSlot(a.organisation_id, held.id)).holders).toBe(1)
          expect(yield* failureTag(catalog.deleteTimeSlot(a, held.id, t0 + 3))).toBe("InUse")
          yield* fx.release(second)
          yield* catalog.deleteTimeSlot(a, held.id, t0 + 4)
          expect(yield* catalog.findTimeSlot(a.organisation_id, held.id)).toEqual(Option.none())
        }))
    })
  })
}
