/** Conformance of Engagements' section submit: the draft, the merge, the versioned and revision-checked write, races. */
import { describe, expect } from "@effect/vitest"
import { Clock, Effect, Layer, Option } from "effect"
import { sectionSubmitted } from "../../events/LifecycleEvents.js"
import type { OutboxEvent } from "../../events/Outbox.js"
import { FormsConfig } from "../../FormsConfig.js"
import { clientAt } from "../../limits/LimitPolicy.js"
import { portalIds, portalTokens } from "../../memory/portal/portalFixture.js"
import { ArtistPortal } from "../../portal/ArtistPortal.js"
import { noSchedule } from "../../portal/SectionLock.js"
import { Engagements } from "../../portal/Engagements.js"
import { ArtistPortalLive } from "../../portal/makeArtistPortal.js"
import { byId, plain, values } from "../support.js"
import { claimAll, type PortalConformanceIt } from "./engagementsConformance.js"
import { type SectionWrite, writeSection } from "./writeSection.js"

const unbounded = { concurrency: "unbounded" } as const

const write = (overrides: Partial<SectionWrite> & Pick<SectionWrite, "engagement_id" | "section_id" | "values" | "submitted_at">): SectionWrite => ({
  schema_id: portalIds.advance,
  form_section_id: portalIds.travelSection,
  subject_id: portalIds.confArtist,
  event_id: portalIds.festival,
  ...overrides
})

/** The advance draft of a conformance engagement (its artist's, at the festival), created or found. */
const advanceDraft = (engagementId: string, at: number) =>
  Effect.flatMap(Engagements, (engagements) =>
    engagements.createAdvanceDraft({
      engagement_id: engagementId,
      schema_id: portalIds.advance,
      subject_id: portalIds.confArtist,
      event_id: portalIds.festival,
      created_at: at
    }))

const forEngagement = (engagementId: string) => (event: OutboxEvent) => event.payload["engagement_id"] === engagementId

export const sectionSubmitConformance = (it: PortalConformanceIt): void => {
  describe("Engagements.submitSection", () => {
    it.effect("creates the advance draft, merges, marks the section submitted, records the event it is given; a repeat reuses the draft", () =>
      Effect.gen(function*() {
        const engagements = yield* Engagements
        yield* claimAll(() => false)
        expect(Option.isNone(yield* engagements.findAdvanceDraft(portalIds.advance, portalIds.confSubmit))).toBe(true)
        // Times in the past: the events are due at once (a store may make them due at `submitted_at`).
        const at = (yield* Clock.currentTimeMillis) - 10_000
        const first = yield* writeSection(write({
          engagement_id: portalIds.confSubmit,
          section_id: portalIds.confSubmitTravel,
          values: values({ arrival_date: "2027-08-19", flight_number: "KL1", travellers: 2 }),
          submitted_at: at
        }))
        const s = first.submission
        expect([s.schema_id, s.idempotency_key, s.status, s.subject_id, s.event_id, s.auto_save_count, s.submitted_at]).toEqual([
          portalIds.advance, `artist_advance:${portalIds.confSubmit}`, "draft", portalIds.confArtist, portalIds.festival, 0, null
        ])
        expect(plain(s.values)).toEqual({ arrival_date: "2027-08-19", flight_number: "KL1", travellers: 2 })
        expect(first.section).toEqual({ id: portalIds.confSubmitTravel, name: "Travel", position: 1, status: "submitted", submitted_at: at, ...noSchedule })
        const [event, ...more] = yield* claimAll(forEngagement(portalIds.confSubmit))
        expect(more).toEqual([])
        expect(event?.type).toBe("section.submitted")
        expect(event?.payload).toEqual({
          engagement_id: portalIds.confSubmit,
          section_id: portalIds.confSubmitTravel,
          form_section_id: portalIds.travelSection,
          submission_id: s.id,
          values: { arrival_date: "2027-08-19", flight_number: "KL1", travellers: 2 }
        })

        const second = yield* writeSection(write({
          engagement_id: portalIds.confSubmit,
          section_id: portalIds.confSubmitHospitality,
          form_section_id: portalIds.hospitalitySection,
          values: values({ dietary: "vegan", flight_number: null }),
          submitted_at: at + 1_000
        }))
        expect(second.submission.id).toBe(s.id)
        expect(second.submission.version).toBeGreaterThan(s.version)
        expect([second.submission.created_at, second.submission.updated_at, second.submission.auto_save_count]).toEqual([s.created_at, at + 1_000, 0])
        expect(plain(second.submission.values)).toEqual({ arrival_date: "2027-08-19", flight_number: null, travellers: 2, dietary: "vegan" })
        const again = yield* writeSection(write({
          engagement_id: portalIds.confSubmit,
          section_id: portalIds.confSubmitTravel,
          values: values({ travellers: 3 }),
          submitted_at: at + 2_000
        }))
        expect(again.section.submitted_at).toBe(at + 2_000)
        expect((yield* claimAll(forEngagement(portalIds.confSubmit))).length).toBe(2)

        const draft = yield* engagements.findAdvanceDraft(portalIds.advance, portalIds.confSubmit)
        expect(Option.map(draft, (d) => [d.id, plain(d.values)])).toEqual(Option.some([s.id, plain(again.submission.values)]))
        const context = yield* engagements.findById(portalIds.confSubmit)
        const sections = Option.map(context, (c) => byId(c.sections).map((x) => [x.id, x.status, x.submitted_at]))
        expect(sections).toEqual(Option.some([
          [portalIds.confSubmitHospitality, "submitted", at + 1_000],
          [portalIds.confSubmitTravel, "submitted", at + 2_000]
        ]))
      }))

    it.effect("a section of another engagement, or an unknown one, is SectionNotFound and writes nothing", () =>
      Effect.gen(function*() {
        const engagements = yield* Engagements
        yield* claimAll(() => false)
        const at = yield* Clock.currentTimeMillis
        for (const sectionId of [portalIds.travel, "as-unknown"]) {
          const error = yield* Effect.flip(engagements.submitSection({
            engagement_id: portalIds.confValues,
            section_id: sectionId,
            schema_id: portalIds.advance,
            draft_id: "00000000-0000-4000-8000-000000000000",
            expected_version: 1,
            values: values({ flight_number: "X" }),
            submitted_at: at,
            event: sectionSubmitted({
              engagement_id: portalIds.confValues,
              section_id: sectionId,
              form_section_id: portalIds.travelSection,
              submission_id: "00000000-0000-4000-8000-000000000000",
              values: values({ flight_number: "X" })
            })
          }))
          expect(error._tag).toBe("SectionNotFound")
        }
        expect(Option.isNone(yield* engagements.findAdvanceDraft(portalIds.advance, portalIds.confValues))).toBe(true)
        expect(yield* claimAll(forEngagement(portalIds.confValues))).toEqual([])
        const main = yield* engagements.findById(portalIds.engagement)
        expect(Option.map(main, (c) => c.sections.every((x) => x.status === "pending"))).toEqual(Option.some(true))
      }))

    it.effect("saveSection writes the values over the draft's (a save counted), leaves the section as it was", () =>
      Effect.gen(function*() {
        const engagements = yield* Engagements
        const at = (yield* Clock.currentTimeMillis) - 10_000
        const draft = yield* advanceDraft(portalIds.confSave, at)
        const save = (v: Record<string, unknown>, overrides: Partial<{ section_id: string; draft_id: string; revision: number }> = {}) =>
          engagements.saveSection({
            engagement_id: portalIds.confSave,
            section_id: portalIds.confSaveTravel,
            schema_id: portalIds.advance,
            draft_id: draft.id,
            values: values(v),
            saved_at: at + 1,
            ...overrides
          })
        const first = yield* save({ flight_number: "KL1" })
        expect([plain(first.values), first.version, first.auto_save_count, first.status, first.updated_at])
          .toEqual([{ flight_number: "KL1" }, draft.version + 1, draft.auto_save_count + 1, "draft", at + 1])
        const second = yield* save({ travellers: 2 })
        expect([plain(second.values), second.auto_save_count]).toEqual([{ flight_number: "KL1", travellers: 2 }, draft.auto_save_count + 2])
        const tagOf = <A, E extends { readonly _tag: string }>(effect: Effect.Effect<A, E>) =>
          Effect.match(effect, { onFailure: (e) => e._tag, onSuccess: () => "success" })
        expect(yield* tagOf(save({ travellers: 3 }, { section_id: portalIds.confSubmitTravel }))).toBe("SectionNotFound")
        expect(yield* tagOf(save({ travellers: 3 }, { draft_id: "00000000-0000-4000-8000-000000000000" }))).toBe("VersionConflict")
        expect(yield* tagOf(save({ travellers: 3 }, { revision: 999_999 }))).toBe("RevisionChanged")
        const stored = Option.getOrThrow(yield* engagements.findAdvanceDraft(portalIds.advance, portalIds.confSave))
        expect([plain(stored.values), stored.auto_save_count]).toEqual([{ flight_number: "KL1", travellers: 2 }, draft.auto_save_count + 2])
        const context = Option.getOrThrow(yield* engagements.findById(portalIds.confSave))
        expect(context.sections.map((s) => [s.id, s.status, s.submitted_at])).toEqual([[portalIds.confSaveTravel, "pending", null]])
      }))

    it.effect("racing creates of the advance draft get one draft: empty, version 1, a draft of the master artist", () =>
      Effect.gen(function*() {
        const engagements = yield* Engagements
        const at = yield* Clock.currentTimeMillis
        const drafts = yield* Effect.forEach(Array.from({ length: 20 }, (_, i) => i), () =>
          advanceDraft(portalIds.confRace, at), unbounded)
        expect(new Set(drafts.map((d) => d.id)).size).toBe(1)
        const found = yield* engagements.findAdvanceDraft(portalIds.advance, portalIds.confRace)
        expect(Option.map(found, (d) => [d.id, d.status, d.version, d.subject_id, d.event_id, d.idempotency_key, plain(d.values)]))
          .toEqual(Option.some([drafts[0]?.id, "draft", 1, portalIds.confArtist, portalIds.festival, `artist_advance:${portalIds.confRace}`, {}]))
      }))

    it.effect("the advance draft of a schema that no longer exists (deleted since it was read) is RevisionChanged, nothing written", () =>
      Effect.gen(function*() {
        const engagements = yield* Engagements
        const refused = yield* Effect.flip(engagements.createAdvanceDraft({
          engagement_id: portalIds.confRevision,
          schema_id: "fs-advance-deleted-meanwhile",
          subject_id: portalIds.confArtist,
          event_id: portalIds.festival,
          created_at: yield* Clock.currentTimeMillis
        }))
        expect(refused._tag).toBe("RevisionChanged")
        expect(yield* engagements.findAdvanceDraft("fs-advance-deleted-meanwhile", portalIds.confRevision)).toEqual(Option.none())
      }))

    it.effect("parallel submits at one version: one writes, every other is VersionConflict and writes nothing", () =>
      Effect.gen(function*() {
        const engagements = yield* Engagements
        yield* claimAll(() => false)
        const at = (yield* Clock.currentTimeMillis) - 10_000
        const draft = yield* advanceDraft(portalIds.confRace, at)
        const sectionOf = (i: number) => (i % 2 === 0 ? portalIds.confRaceTravel : portalIds.confRaceHospitality)
        const outcomes = yield* Effect.forEach(Array.from({ length: 10 }, (_, i) => i), (i) =>
          engagements.submitSection({
            engagement_id: portalIds.confRace,
            section_id: sectionOf(i),
            schema_id: portalIds.advance,
            draft_id: draft.id,
            expected_version: draft.version,
            values: values({ [`k${i}`]: i }),
            submitted_at: at + i,
            event: sectionSubmitted({
              engagement_id: portalIds.confRace,
              section_id: sectionOf(i),
              form_section_id: portalIds.travelSection,
              submission_id: draft.id,
              values: values({ [`k${i}`]: i })
            })
          }).pipe(
            Effect.map(() => i),
            Effect.catchTag("VersionConflict", (error) => Effect.succeed(error._tag))
          ), unbounded)
        const winners = outcomes.filter((o): o is number => typeof o === "number")
        expect([winners.length, outcomes.filter((o) => o === "VersionConflict").length]).toEqual([1, 9])
        const winner = winners[0] ?? -1
        const stored = yield* engagements.findAdvanceDraft(portalIds.advance, portalIds.confRace)
        expect(Option.map(stored, (d) => [d.version, plain(d.values)])).toEqual(Option.some([draft.version + 1, { [`k${winner}`]: winner }]))
        const events = yield* claimAll(forEngagement(portalIds.confRace))
        expect(events.map((e) => e.payload["values"])).toEqual([{ [`k${winner}`]: winner }])
        const context = yield* engagements.findById(portalIds.confRace)
        expect(Option.map(context, (c) => byId(c.sections).map((x) => [x.id, x.status, x.submitted_at]))).toEqual(Option.some(
          byId([portalIds.confRaceTravel, portalIds.confRaceHospitality].map((id) => ({ id }))).map(({ id }) =>
            id === sectionOf(winner) ? [id, "submitted", at + winner] : [id, "pending", null]
          )
        ))
      }))

    it.effect("a submit validated against a revision the advance schema has left is RevisionChanged and writes nothing", () =>
      Effect.gen(function*() {
        const engagements = yield* Engagements
        yield* claimAll(() => false)
        const context = yield* engagements.findById(portalIds.confRevision)
        const revision = Option.getOrUndefined(context)?.advance_schema?.revision
        if (revision === undefined) return expect.fail("the engagement's organisation has an advance schema")
        const at = (yield* Clock.currentTimeMillis) - 10_000
        const draft = yield* advanceDraft(portalIds.confRevision, at)
        const submit = (at_revision: number) =>
          engagements.submitSection({
            engagement_id: portalIds.confRevision,
            section_id: portalIds.confRevisionTravel,
            schema_id: portalIds.advance,
            draft_id: draft.id,
            expected_version: draft.version,
            revision: at_revision,
            values: values({ flight_number: "KL2" }),
            submitted_at: at,
            event: sectionSubmitted({
              engagement_id: portalIds.confRevision,
              section_id: portalIds.confRevisionTravel,
              form_section_id: portalIds.travelSection,
              submission_id: draft.id,
              values: values({ flight_number: "KL2" })
            })
          })
        const stale = yield* Effect.flip(submit(revision + 1))
        expect(stale._tag).toBe("RevisionChanged")
        const stored = yield* engagements.findAdvanceDraft(portalIds.advance, portalIds.confRevision)
        expect(Option.map(stored, (d) => [d.version, plain(d.values)])).toEqual(Option.some([draft.version, {}]))
        const unchanged = yield* engagements.findById(portalIds.confRevision)
        expect(Option.map(unchanged, (c) => c.sections.map((x) => [x.status, x.submitted_at]))).toEqual(Option.some([["pending", null]]))
        expect(yield* claimAll(forEngagement(portalIds.confRevision))).toEqual([])

        const written = yield* submit(revision)
        expect([written.submission.version, plain(written.submission.values), written.section.status])
          .toEqual([draft.version + 1, { flight_number: "KL2" }, "submitted"])
        expect((yield* claimAll(forEngagement(portalIds.confRevision))).length).toBe(1)
      }))

    it.effect("20 rounds of two parallel section submits, each of another field, through the use case: no value is lost", () =>
      Effect.gen(function*() {
        const portal = yield* ArtistPortal
        const engagements = yield* Engagements
        const submit = (ip: string, body: Record<string, unknown>) =>
          portal.submitSection(portalTokens.confRounds, portalIds.confRoundsTravel, values(body), clientAt(ip))
        yield* submit("198.51.100.1", { arrival_date: "2027-08-19" })
        for (let round = 0; round < 20; round++) {
          // Each round is its own client: 40 submits stay under the portal limit of one client.
          const ip = `198.51.100.${round + 10}`
          yield* Effect.all([submit(ip, { flight_number: `F${round}` }), submit(ip, { airline: `A${round}` })], unbounded)
          const draft = yield* engagements.findAdvanceDraft(portalIds.advance, portalIds.confRounds)
          expect(Option.map(draft, (d) => plain(d.values)), `round ${round}`).toEqual(Option.some({
            arrival_date: "2027-08-19",
            flight_number: `F${round}`,
            airline: `A${round}`
          }))
        }
        yield* claimAll(() => false)
      }).pipe(Effect.provide(ArtistPortalLive.layer.pipe(Layer.provide(FormsConfig.layer())))))
  })
}
