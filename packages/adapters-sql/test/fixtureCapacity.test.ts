import { assert, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { loadFixture } from "../src/fixture/loadFixture.js"
import { ids, validFixture } from "./fixtures.js"
import { embeddedPorts } from "./support.js"

// CONTRACT §10/§15: `time_slots[].capacity` is a positive integer, null or absent; `time_slots` is a field type.
const withCapacities = (capacities: ReadonlyArray<unknown>) => {
  const fixture = validFixture()
  const [volunteer, ...others] = fixture.form_schemas
  return {
    ...fixture,
    time_slots: capacities.map((capacity, i) => ({
      id: `ts-cap-${i}`,
      event_id: ids.festival,
      name: `Slot ${i}`,
      date: "2027-08-21",
      start_time: "08:00",
      end_time: "12:00",
      ...(capacity === "absent" ? {} : { capacity })
    })),
    form_schemas: [
      {
        ...volunteer,
        fields: [
          ...(volunteer?.fields ?? []),
          { id: "ff-test-shifts", section_id: null, slug: "shifts", label: "Shifts", type: "time_slots", is_required: false, options: null, validation_rules: { min: 1, max: 2 }, is_unique: false, position: 9, maps_to: null }
        ]
      },
      ...others
    ]
  }
}

layer(embeddedPorts, { timeout: "60 seconds" })("fixture time-slot capacity", (it) => {
  it.effect("a capacity that is not a positive integer or null is refused, each one named; nothing is written", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(loadFixture(withCapacities([0, -1, 1.5, "3", true, 2, null])))
      assert.strictEqual(error._tag, "FixtureRejected")
      if (error._tag !== "FixtureRejected") return
      expect(error.problems).toEqual([
        `time slot "ts-cap-0": capacity 0 is not a positive integer or null.`,
        `time slot "ts-cap-1": capacity -1 is not a positive integer or null.`,
        `time slot "ts-cap-2": capacity 1.5 is not a positive integer or null.`,
        `time slot "ts-cap-3": capacity "3" is not a positive integer or null.`,
        `time slot "ts-cap-4": capacity true is not a positive integer or null.`
      ])
      const sql = yield* SqlClient.SqlClient
      expect((yield* sql`SELECT id FROM time_slots`).length).toBe(0)
    }))

  it.effect("capacities load (absent is unlimited), a time_slots field is accepted, and a reload changes nothing", () =>
    Effect.gen(function*() {
      const fixture = withCapacities([3, null, "absent"])
      expect((yield* loadFixture(fixture)).changed).toBeGreaterThan(0)
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ readonly id: string; readonly capacity: number | null }>`
        SELECT id, capacity FROM time_slots ORDER BY id`
      expect(rows.map((r) => [r.id, r.capacity])).toEqual([["ts-cap-0", 3], ["ts-cap-1", null], ["ts-cap-2", null]])
      const fields = yield* sql<{ readonly type: string }>`SELECT type FROM form_fields WHERE slug = 'shifts'`
      expect(fields.map((f) => f.type)).toEqual(["time_slots"])
      expect((yield* loadFixture(fixture)).changed).toBe(0)
    }))
})
