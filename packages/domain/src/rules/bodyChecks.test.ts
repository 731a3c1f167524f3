import { describe, expect, it } from "@effect/vitest"
import { Result } from "effect"
import { artistInput } from "../organiser/artists/artistInput.js"
import { eventInput, sectionInput, slotPatch } from "../organiser/catalog/catalogInput.js"
import { engagementInput } from "../organiser/engagements/engagementInput.js"
import { endpointInput, endpointPatch } from "../webhooks/webhookInput.js"
import { FieldProblems, unstorableMessage, unstorablePaths } from "./bodyChecks.js"
import type { FieldErrors } from "./FieldErrors.js"

const failures = <A>(result: Result.Result<A, FieldErrors>) =>
  Result.isFailure(result) ? Object.entries(result.failure).map(([path, errors]) => [path, errors.map((e) => e.rule)]) : []

const lone = "x\ud800y"

describe("strings that cannot be stored (U+0000, an unpaired surrogate), wherever they sit", () => {
  it("unstorablePaths names each one by its dotted path, in document order; pairs and plain text pass", () => {
    expect(unstorablePaths({
      name: "Zoë 🎪",
      a: [{ name: lone }, { name: "ok", tags: ["\udc00", "fine"] }],
      b: "nul\u0000",
      c: { d: "\ud83c\udfaa", e: "\udfaa\ud83c" }
    })).toEqual(["a.0.name", "a.1.tags.0", "b", "c.e"])
    expect(unstorablePaths("\ud800", "x")).toEqual(["x"])
    expect(unstorablePaths([1, true, null, "ok"])).toEqual([])
  })

  it("a body nested 100,000 levels deep is walked without exhausting the stack", () => {
    let deep: unknown = lone
    for (let i = 0; i < 100_000; i++) deep = [deep]
    expect(unstorablePaths({ deep })[0]).toMatch(/^deep(\.0){100000}$/)
  })

  it("FieldProblems of a body names them first, and a path so named takes no further problem", () => {
    const problems = new FieldProblems({ name: lone, other: "fine" })
    problems.add("name", "max", "too long")
    problems.add("other", "required", "r")
    expect({ ...problems.errors }).toEqual({
      name: [{ rule: "invalid", message: unstorableMessage }],
      other: [{ rule: "required", message: "r" }]
    })
  })

  it("refused in every organiser body: events, slots, sections, artists, advance sections, webhook descriptions", () => {
    expect(failures(eventInput({ name: lone }))).toEqual([["name", ["invalid"]]])
    expect(failures(slotPatch({ name: lone, date: "2027-08-20\ud800" }))).toEqual([["name", ["invalid"]], ["date", ["invalid"]]])
    expect(failures(sectionInput({ name: "Bar", type: lone }))).toEqual([["type", ["invalid"]]])
    expect(failures(artistInput({ name: lone }))).toEqual([["name", ["invalid"]]])
    expect(failures(engagementInput({
      event_id: "e",
      master_artist_id: "a",
      advance_sections: [{ name: "Travel", position: 1 }, { name: lone, position: 2 }]
    }))).toEqual([["advance_sections.1.name", ["invalid"]]])
    const policy = { allowPrivateTargets: false }
    expect(failures(endpointInput({ url: "https://hooks.example.com/x", event_types: ["*"], description: lone }, policy)))
      .toEqual([["description", ["invalid"]]])
    expect(failures(endpointPatch({ description: lone }, policy))).toEqual([["description", ["invalid"]]])
    // Other problems of the same body are still named beside them.
    expect(failures(eventInput({ name: lone, colour: "red" }))).toEqual([["name", ["invalid"]], ["colour", ["invalid"]]])
  })
})
