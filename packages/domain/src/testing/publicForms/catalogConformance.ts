/** Conformance of FormSchemas and RegistrationData against the seeded store. */
import { describe, expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { FormSchema } from "../../forms/FormSchema.js"
import { seedIds, seedTokens } from "../../memory/conformanceSeed.js"
import { type ConformanceSeed, formSchemaFromSeed } from "../../memory/Seed.js"
import { FormSchemas } from "../../publicForms/FormSchemas.js"
import { RegistrationData } from "../../shifts/RegistrationData.js"
import { byId, type ConformanceIt } from "../support.js"
import { seedSlotInstants } from "../../memory/shifts/seedSlotInstants.js"

/** A schema with its revision left out and its lists in id order: what two stores must agree on. */
const comparable = (schema: FormSchema) => ({
  ...schema,
  revision: 0,
  sections: byId(schema.sections),
  fields: byId(schema.fields)
})

export const catalogConformance = (it: ConformanceIt, seed: ConformanceSeed): void => {
  const expected = (id: string): FormSchema => {
    const schema = seed.form_schemas.find((s) => s.id === id)
    if (schema === undefined) throw new Error(`the seed has no schema ${id}`)
    return formSchemaFromSeed(seed, schema)
  }

  describe("FormSchemas", () => {
    it.effect("findByToken finds a schema by its current token, with its event, sections and fields", () =>
      Effect.gen(function*() {
        const found = yield* (yield* FormSchemas).findByToken(seedTokens.volunteer)
        expect(Option.isSome(found)).toBe(true)
        if (Option.isNone(found)) return
        expect(comparable(found.value)).toEqual(comparable(expected(seedIds.volunteer)))
        expect(Number.isInteger(found.value.revision)).toBe(true)
        expect(found.value.revision).toBeGreaterThan(0)
      }))

    it.effect("findByToken finds a schema by its previous token (the grace rule is the domain's)", () =>
      Effect.gen(function*() {
        const found = yield* (yield* FormSchemas).findByToken(seedTokens.volunteerPrevious)
        expect(Option.map(found, (schema) => schema.id)).toEqual(Option.some(seedIds.volunteer))
      }))

    it.effect("findByToken answers whatever the status or type (the domain refuses them)", () =>
      Effect.gen(function*() {
        const schemas = yield* FormSchemas
        const draft = yield* schemas.findByToken(seedTokens.draft)
        const advance = yield* schemas.findByToken(seedTokens.advance)
        expect(Option.map(draft, (schema) => [schema.id, schema.status])).toEqual(Option.some([seedIds.draft, "draft"]))
        expect(Option.map(advance, (schema) => schema.type)).toEqual(Option.some("artist_advance"))
        const noEvent = yield* schemas.findByToken(seedTokens.noEvent)
        expect(Option.map(noEvent, (schema) => schema.event)).toEqual(Option.some(null))
      }))

    it.effect("findByToken answers None for an unknown token", () =>
      Effect.gen(function*() {
        const schemas = yield* FormSchemas
        expect(Option.isNone(yield* schemas.findByToken("tok-unknown-0000000001"))).toBe(true)
        expect(Option.isNone(yield* schemas.findByToken(""))).toBe(true)
      }))

    it.effect("the revision of an unchanged schema is stable", () =>
      Effect.gen(function*() {
        const schemas = yield* FormSchemas
        const first = yield* schemas.findByToken(seedTokens.volunteer)
        const second = yield* schemas.findByToken(seedTokens.volunteerPrevious)
        expect(Option.map(first, (s) => s.revision)).toEqual(Option.map(second, (s) => s.revision))
      }))
  })

  describe("RegistrationData", () => {
    const eventsOf = (ids: ReadonlyArray<string>) =>
      byId(seed.events.filter((event) => ids.includes(event.id)).map(({ id, name, parent_event_id, timezone }) => ({
        id,
        name,
        parent_event_id,
        timezone: timezone ?? null
      })))

    it.effect("eventTree is the event and its direct children only", () =>
      Effect.gen(function*() {
        const data = yield* RegistrationData
        expect(byId(yield* data.eventTree(seedIds.festival))).toEqual(
          eventsOf([seedIds.festival, seedIds.day1, seedIds.day2])
        )
        expect(byId(yield* data.eventTree(seedIds.day1))).toEqual(eventsOf([seedIds.day1, seedIds.day1Night]))
        expect(byId(yield* data.eventTree(seedIds.other))).toEqual(eventsOf([seedIds.other]))
        expect(yield* data.eventTree("ev-unknown")).toEqual([])
      }))

    it.effect("timeSlots lists every slot of the given events, times as HH:MM, with capacity and holders", () =>
      Effect.gen(function*() {
        const data = yield* RegistrationData
        const ids: ReadonlyArray<string> = [seedIds.festival, seedIds.day1]
        // No test holds a place on these slots (places are taken on the shifts festival only).
        expect(byId(yield* data.timeSlots(ids))).toEqual(
          byId(seed.time_slots.filter((s) => ids.includes(s.event_id)).map((s) => ({
            ...s,
            ...seedSlotInstants(seed, s),
            capacity: s.capacity ?? null,
            holders: 0,
            waitlist: s.waitlist ?? false,
            waitlisted: 0
          })))
        )
        expect(yield* data.timeSlots([])).toEqual([])
      }))

    it.effect("sections lists every section of the given events, hidden and non-standard ones too", () =>
      Effect.gen(function*() {
        const data = yield* RegistrationData
        const ids: ReadonlyArray<string> = [seedIds.festival, seedIds.day2]
        expect(byId(yield* data.sections(ids))).toEqual(
          byId(seed.event_sections.filter((s) => ids.includes(s.event_id)))
        )
        expect(yield* data.sections([])).toEqual([])
      }))
  })
}
