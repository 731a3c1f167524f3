import { describe, expect, it } from "@effect/vitest"
import { type FormField, normalizeField } from "../forms/FormField.js"
import { seedField, seedSchemaDefaults } from "../memory/Seed.js"
import type { FormSchema } from "../forms/FormSchema.js"
import type { AdvanceSection } from "./Engagement.js"
import { advanceDraftKey } from "./Engagement.js"
import { noSchedule } from "./SectionLock.js"
import { findMappedSection, formSectionNamed, mapSections, sectionFields } from "./SectionMapping.js"

const field = (slug: string, section_id: string | null, position: number): FormField =>
  normalizeField(seedField({ id: `f-${slug}`, slug, section_id, position }))

const schema: FormSchema = {
  id: "fs-adv",
  organisation_id: "org",
  revision: 1,
  event: null,
  name: "Advance",
  type: "artist_advance",
  ...seedSchemaDefaults,
  sections: [
    { id: "s-b", name: "Travel", position: 2 },
    { id: "s-a", name: "Travel", position: 2 },
    { id: "s-h", name: "Hospitality", position: 1 },
    { id: "s-u", name: "Ünïcode", position: 3 }
  ],
  fields: [field("b", "s-a", 2), field("a", "s-a", 2), field("z", "s-a", 1), field("h", "s-h", 1), field("x", null, 0)]
}

const section = (id: string, name: string, position: number): AdvanceSection => ({
  id,
  name,
  position,
  status: "pending",
  submitted_at: null,
  ...noSchedule
})

describe("section mapping", () => {
  it("maps by exact, case-sensitive name; several equal names pick the first by position then id", () => {
    expect(formSectionNamed(schema, "Travel")?.id).toBe("s-a")
    expect(formSectionNamed(schema, "travel")).toBeNull()
    expect(formSectionNamed(schema, "Travel ")).toBeNull()
    expect(formSectionNamed(schema, "Ünïcode")?.id).toBe("s-u")
    expect(formSectionNamed(schema, "Unicode")).toBeNull()
  })

  it("orders the engagement's sections by position then id (code units) and marks availability", () => {
    const mapped = mapSections(
      [section("b2", "Travel", 2), section("B1", "travel", 2), section("a", "Hospitality", 3), section("z", "Rider", 1)],
      schema
    )
    expect(mapped.map((s) => [s.id, s.form_section?.id ?? null])).toEqual([
      ["z", null],
      ["B1", null],
      ["b2", "s-a"],
      ["a", "s-h"]
    ])
  })

  it("without an advance schema nothing is available", () => {
    expect(mapSections([section("a", "Travel", 1)], null).map((s) => s.form_section)).toEqual([null])
    expect(findMappedSection([section("a", "Travel", 1)], null, "a")).toBeNull()
  })

  it("finds only a mapped section of the engagement", () => {
    const sections = [section("a", "Travel", 1), section("b", "travel", 2)]
    expect(findMappedSection(sections, schema, "a")?.form_section.id).toBe("s-a")
    expect(findMappedSection(sections, schema, "b")).toBeNull()
    expect(findMappedSection(sections, schema, "c")).toBeNull()
  })

  it("a form section's fields come ordered by position then slug; fields of no section never", () => {
    expect(sectionFields(schema, "s-a").map((f) => f.slug)).toEqual(["z", "a", "b"])
    expect(sectionFields(schema, "s-h").map((f) => f.slug)).toEqual(["h"])
    expect(sectionFields(schema, "s-b")).toEqual([])
  })

  it("the advance draft's idempotency key", () => {
    expect(advanceDraftKey("en-1")).toBe("artist_advance:en-1")
  })
})
