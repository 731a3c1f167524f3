/** Conformance of OutboxSignal: a notify wakes a waiter (or the next wait), a wait times out, a section submit notifies. */
import { describe, expect } from "@effect/vitest"
import { Clock, Effect, Fiber } from "effect"
import { OutboxSignal } from "../../events/OutboxSignal.js"
import { portalIds } from "../../memory/portal/portalFixture.js"
import { claimAll, type PortalConformanceIt } from "../portal/engagementsConformance.js"
import { writeSection } from "../portal/writeSection.js"
import { values } from "../support.js"

/** Consumes notifications left over from earlier tests. */
const quiet = OutboxSignal.use((signal) =>
  Effect.gen(function*() {
    while (yield* signal.wait(20)) {
      // another notification was pending
    }
  }))

export const outboxSignalConformance = (it: PortalConformanceIt): void => {
  describe("OutboxSignal", () => {
    it.effect("a wait times out with false; a notify wakes a waiting fiber with true", () =>
      Effect.gen(function*() {
        const signal = yield* OutboxSignal
        yield* quiet
        expect(yield* signal.wait(50)).toBe(false)
        const waiter = yield* Effect.forkChild(signal.wait(10_000))
        yield* Effect.sleep(50)
        yield* signal.notify
        expect(yield* Fiber.join(waiter)).toBe(true)
      }))

    it.effect("a notify while nobody waits is not lost: the next wait returns true", () =>
      Effect.gen(function*() {
        const signal = yield* OutboxSignal
        yield* quiet
        yield* signal.notify
        expect(yield* signal.wait(10_000)).toBe(true)
      }))

    it.effect("a section submit wakes the dispatcher", () =>
      Effect.gen(function*() {
        const signal = yield* OutboxSignal
        yield* quiet
        const at = yield* Clock.currentTimeMillis
        yield* writeSection({
          engagement_id: portalIds.confRace,
          section_id: portalIds.confRaceTravel,
          schema_id: portalIds.advance,
          form_section_id: portalIds.travelSection,
          subject_id: portalIds.confArtist,
          event_id: portalIds.festival,
          values: values({ signal: at }),
          submitted_at: at
        })
        expect(yield* signal.wait(10_000)).toBe(true)
        yield* claimAll(() => false)
      }))
  })
}
