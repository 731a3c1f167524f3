import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { SubmissionRecords } from "../../submissionsOut/SubmissionRecords.js"
import { conformanceSeed, seedIds, shiftSlots } from "../conformanceSeed.js"
import { InMemoryStore } from "../InMemoryStore.js"
import { InMemorySubmissionsOut } from "./InMemorySubmissionsOut.js"
import { inMemorySubmissionsOutPorts } from "../../testing/submissionsOut/InMemorySubmissionsOutFixture.js"
import { submissionsOutConformance } from "../../testing/submissionsOut/submissionsOutConformance.js"

submissionsOutConformance("in-memory submissions out ports", inMemorySubmissionsOutPorts)

describe("in-memory export columns of a form with a time-slot field", () => {
  it.effect("name every slot of the organisation by its label", () =>
    Effect.gen(function*() {
      const records = yield* SubmissionRecords
      const columns = Option.getOrThrow(yield* records.formColumns(seedIds.organisation, seedIds.shiftsForm))
      expect(columns.slugs).toEqual(["email", "shifts"])
      expect(columns.time_slots?.slugs).toEqual(["shifts"])
      expect(columns.time_slots?.labels[shiftSlots.b]).toBe("Bar 2027-09-01 12:00\u201316:00")
      // a form without one has none
      const other = Option.getOrThrow(yield* records.formColumns(seedIds.organisation, seedIds.volunteer))
      expect(other.time_slots).toBeUndefined()
    }).pipe(Effect.provide(InMemorySubmissionsOut.layer.pipe(Layer.provide(InMemoryStore.layer(conformanceSeed))))))
})
