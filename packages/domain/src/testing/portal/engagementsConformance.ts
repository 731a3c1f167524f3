/** Conformance of Engagements: the portal context by token and id (the section submit: sectionSubmitConformance.ts). */
import { describe, expect, type Vitest } from "@effect/vitest"
import { Effect, Option } from "effect"
import { Outbox, type OutboxEvent } from "../../events/Outbox.js"
import type { FormSchema } from "../../forms/FormSchema.js"
import type { Ports } from "../../memory/InMemory.js"
import type { PortalPorts } from "../../memory/portal/InMemoryPortal.js"
import { type PortalFixture, portalIds, portalTokens } from "../../memory/portal/portalFixture.js"
import { formSchemaFromSeed } from "../../memory/Seed.js"
import type { PortalContext } from "../../portal/Engagement.js"
import { Engagements } from "../../portal/Engagements.js"
import { noSchedule } from "../../portal/SectionLock.js"
import { byId } from "../support.js"

export type PortalConformanceIt = Vitest.MethodsNonLive<Ports | PortalPorts>

/** A schema without its revision, lists in id order: what two stores must agree on. */
const comparable = (schema: FormSchema | null) =>
  schema === null ? null : { ...schema, revision: 0, sections: byId(schema.sections), fields: byId(schema.fields) }

const comparableContext = (context: PortalContext) => ({
  ...context,
  sections: byId(context.sections),
  advance_schema: comparable(context.advance_schema)
})

/** Claims every due event; marks delivered those that are not `keep`'s, answers the kept ones (delivered too). */
export const claimAll = (keep: (event: OutboxEvent) => boolean) =>
  Effect.gen(function*() {
    const outbox = yield* Outbox
    const kept: Array<OutboxEvent> = []
    for (;;) {
      const { events, parked } = yield* outbox.claim(100, { leaseMs: 60_000, maxAttempts: 10 })
      if (events.length === 0 && parked.length === 0) return kept
      for (const event of events) {
        if (keep(event)) kept.push(event)
        yield* outbox.markDelivered(event.id)
      }
    }
  })

export const engagementsConformance = (it: PortalConformanceIt, fixture: PortalFixture): void => {
  const schemaOf = (id: string) => {
    const schema = fixture.form_schemas.find((s) => s.id === id)
    if (schema === undefined) throw new Error(`the fixture has no schema ${id}`)
    return formSchemaFromSeed(fixture, schema)
  }

  describe("Engagements.findByToken / findById", () => {
    it.effect("resolves a token to the engagement, its event, artist, advance sections and the organisation's advance schema", () =>
      Effect.gen(function*() {
        const found = yield* (yield* Engagements).findByToken(portalTokens.engagement)
        if (Option.isNone(found)) return expect.fail("the main engagement's token was not found")
        expect(comparableContext(found.value)).toEqual(comparableContext({
          engagement: {
            id: portalIds.engagement,
            organisation_id: portalIds.organisation,
            event: { id: portalIds.festival, name: "Portal Festival 2027" },
            master_artist_id: portalIds.artist
          },
          artist: { id: portalIds.artist, name: "The Main Act", deleted_at: null },
          sections: [
            { id: portalIds.rider, name: "Rider", position: 3, status: "pending", submitted_at: null, ...noSchedule },
            { id: portalIds.travelLower, name: "travel", position: 2, status: "pending", submitted_at: null, ...noSchedule },
            { id: portalIds.travel, name: "Travel", position: 2, status: "pending", submitted_at: null, ...noSchedule },
            { id: portalIds.hospitality, name: "Hospitality", position: 1, status: "pending", submitted_at: null, ...noSchedule }
          ],
          advance_schema: schemaOf(portalIds.advance)
        }))
      }))

    it.effect("an unknown, empty, re-cased or padded token finds nothing", () =>
      Effect.gen(function*() {
        const engagements = yield* Engagements
        for (const token of ["ptok-unknown-000000000001", "", portalTokens.engagement.toUpperCase(), `${portalTokens.engagement} `]) {
          expect(Option.isNone(yield* engagements.findByToken(token))).toBe(true)
        }
      }))

    it.effect("a soft-deleted artist comes with its deleted_at; an organisation without advance schema with null", () =>
      Effect.gen(function*() {
        const engagements = yield* Engagements
        const gone = yield* engagements.findByToken(portalTokens.goneEngagement)
        expect(Option.map(gone, (c) => c.artist.deleted_at)).toEqual(Option.some(Date.parse("2027-06-01T00:00:00.000Z")))
        const bare = yield* engagements.findByToken(portalTokens.bareEngagement)
        expect(Option.map(bare, (c) => [c.engagement.organisation_id, c.advance_schema])).toEqual(Option.some([portalIds.bareOrganisation, null]))
      }))

    it.effect("findById answers what findByToken answers; an unknown id None", () =>
      Effect.gen(function*() {
        const engagements = yield* Engagements
        const byToken = yield* engagements.findByToken(portalTokens.secondEngagement)
        const byIdentifier = yield* engagements.findById(portalIds.secondEngagement)
        expect(Option.map(byIdentifier, comparableContext)).toEqual(Option.map(byToken, comparableContext))
        expect(Option.isNone(yield* engagements.findById("en-unknown"))).toBe(true)
      }))
  })
}
