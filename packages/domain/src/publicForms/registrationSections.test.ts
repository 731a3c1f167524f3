import fc from "fast-check"
import { describe, expect, it } from "@effect/vitest"
import type { EventSectionRecord } from "../shifts/RegistrationData.js"
import { registrationSections } from "./registrationSections.js"

const section = (
  id: string,
  name: string,
  position: number,
  overrides: Partial<EventSectionRecord> = {}
): EventSectionRecord => ({ id, event_id: "ev", name, type: "standard", show_in_registration: true, position, ...overrides })

describe("registrationSections", () => {
  it.each([
    {
      case: "hidden and non-standard sections are dropped",
      input: [section("a", "Bar", 1, { show_in_registration: false }), section("b", "Stage", 1, { type: "artist" }), section("c", "Camping", 2)],
      ids: ["c"]
    },
    {
      case: "one per name: the lowest position wins",
      input: [section("a", "Bar", 3), section("b", "Bar", 1), section("c", "Bar", 2)],
      ids: ["b"]
    },
    {
      case: "one per name: at equal positions the lowest id wins",
      input: [section("b", "Bar", 1), section("a", "Bar", 1)],
      ids: ["a"]
    },
    {
      case: "names are compared case-sensitively",
      input: [section("a", "Bar", 1), section("b", "bar", 1)],
      ids: ["a", "b"]
    },
    {
      case: "the filter runs before the dedupe: a hidden section never hides a visible one",
      input: [section("a", "Tickets", 0, { show_in_registration: false }), section("b", "Tickets", 5)],
      ids: ["b"]
    },
    {
      case: "sorted by position, then name in code-unit order",
      input: [section("a", "Info", 2), section("b", "Camping", 2), section("c", "Bar", 1), section("d", "camping", 2)],
      ids: ["c", "b", "a", "d"]
    },
    { case: "nothing in, nothing out", input: [], ids: [] }
  ])("$case", ({ ids, input }) => {
    expect(registrationSections(input).map((s) => s.id)).toEqual(ids)
  })

  it("lists only id, name, type and position", () => {
    expect(registrationSections([section("a", "Bar", 1)])).toEqual([{ id: "a", name: "Bar", type: "standard", position: 1 }])
  })

  it("property: names are unique, sorted, and each kept section is the best of its name", () => {
    const arb = fc.array(
      fc.record({
        id: fc.string({ maxLength: 3 }),
        name: fc.constantFrom("Bar", "bar", "Stage", "Info"),
        position: fc.integer({ min: 0, max: 3 }),
        show: fc.boolean(),
        standard: fc.boolean()
      }),
      { maxLength: 20 }
    )
    fc.assert(
      fc.property(arb, (rows) => {
        const input = rows.map((r) =>
          section(r.id, r.name, r.position, { show_in_registration: r.show, type: r.standard ? "standard" : "other" })
        )
        const output = registrationSections(input)
        expect(new Set(output.map((s) => s.name)).size).toBe(output.length)
        for (const kept of output) {
          const rivals = input.filter((s) => s.name === kept.name && s.show_in_registration && s.type === "standard")
          for (const rival of rivals) {
            expect(kept.position < rival.position || (kept.position === rival.position && kept.id <= rival.id)).toBe(true)
          }
        }
        for (let i = 1; i < output.length; i++) {
          const [a, b] = [output[i - 1], output[i]]
          if (a === undefined || b === undefined) continue
          expect(a.position < b.position || (a.position === b.position && a.name < b.name)).toBe(true)
        }
      })
    )
  })
})
