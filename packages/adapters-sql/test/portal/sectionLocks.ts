/**
 * Deadlines and locks of advance sections on the SQL ports (shared by the PGlite and PostgreSQL files): an
 * organiser's change of a section's lock, its events, and the section write that checks the lock in its own
 * statement (so a lock and a write are ordered by the section's row).
 */
import { expect } from "@effect/vitest"
import type { Vitest } from "@effect/vitest"
import { Effect, Option } from "effect"
import { SqlClient } from "effect/sql"
import { type Actor, Engagements, OrganiserArtists } from "@forms/domain"
import { lockTransition, type SchedulePatch } from "@forms/domain/internal"
import { type PortalPorts, portalIds, type Ports, writeSection } from "@forms/domain/testing"

export type LocksIt = Vitest.MethodsNonLive<Ports | PortalPorts | OrganiserArtists | SqlClient.SqlClient>

const actor: Actor = { organisation_id: portalIds.organisation, api_key_id: null }
const at = Date.parse("2027-03-01T12:00:00.000Z")

const write = (sectionId: string, values: Record<string, unknown>, when: number) =>
  writeSection({
    engagement_id: portalIds.engagement,
    section_id: sectionId,
    schema_id: portalIds.advance,
    form_section_id: portalIds.travelSection,
    subject_id: portalIds.artist,
    event_id: portalIds.festival,
    values: Object.assign(Object.create(null) as Record<string, unknown>, values),
    submitted_at: when
  })

/** The organiser's change of a section, with the domain's events (as the use case passes them). */
const change = (sectionId: string, patch: SchedulePatch, when: number) =>
  Effect.gen(function*() {
    const artists = yield* OrganiserArtists
    return yield* artists.updateAdvanceSection(actor, portalIds.engagement, sectionId, patch, when, (before, after) => {
      const event = lockTransition({ engagement_id: portalIds.engagement, section_id: sectionId }, before, after, when)
      return event === null ? [] : [event]
    })
  })

const lockEvents = (sectionId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ readonly type: string }>`SELECT type FROM outbox WHERE payload->>'section_id' = ${sectionId}
      AND type IN ('section.locked', 'section.reopened') ORDER BY seq`
    return rows.map((r) => r.type)
  })

const failureTag = <A, E extends { readonly _tag: string }, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.match(effect, { onFailure: (e) => e._tag, onSuccess: () => "success" })

export const sectionLockTests = (it: LocksIt) => {
  it.effect("a section locked by hand refuses its write (nothing written); unlocked, it takes writes again", () =>
    Effect.gen(function*() {
      const engagements = yield* Engagements
      yield* write(portalIds.travel, { travellers: 1 }, at)
      const locked = yield* change(portalIds.travel, { lock_setting: true }, at + 1)
      expect(locked.advance_sections.find((s) => s.id === portalIds.travel)).toMatchObject({ lock_setting: true })
      expect(yield* failureTag(write(portalIds.travel, { travellers: 2 }, at + 2))).toBe("SectionLocked")
      const context = Option.getOrThrow(yield* engagements.findById(portalIds.engagement))
      expect(context.sections.find((s) => s.id === portalIds.travel)).toMatchObject({ status: "submitted", submitted_at: at, lock_setting: true })
      const draft = Option.getOrThrow(yield* engagements.findAdvanceDraft(portalIds.advance, portalIds.engagement))
      expect(draft.values["travellers"]).toBe(1)
      // An unknown section is still SectionNotFound, locked or not.
      expect(yield* failureTag(write("as-no-such", { travellers: 2 }, at + 2))).toBe("SectionNotFound")
      yield* change(portalIds.travel, { lock_setting: null }, at + 3)
      expect((yield* write(portalIds.travel, { travellers: 3 }, at + 4)).section.submitted_at).toBe(at + 4)
      expect(yield* lockEvents(portalIds.travel)).toEqual(["section.locked", "section.reopened"])
    }))

  it.effect("locks_at locks from its instant on; locked false keeps the section open; a change by time records no event", () =>
    Effect.gen(function*() {
      yield* change(portalIds.hospitality, { locks_at: at + 100, due_at: at + 50 }, at)
      yield* write(portalIds.hospitality, { dietary: "vegan" }, at + 99)
      expect(yield* failureTag(write(portalIds.hospitality, { dietary: "none" }, at + 100))).toBe("SectionLocked")
      yield* change(portalIds.hospitality, { lock_setting: false }, at + 200)
      yield* write(portalIds.hospitality, { dietary: "none" }, at + 201)
      yield* change(portalIds.hospitality, { lock_setting: null }, at + 300)
      expect(yield* failureTag(write(portalIds.hospitality, { dietary: "x" }, at + 301))).toBe("SectionLocked")
      expect(yield* lockEvents(portalIds.hospitality)).toEqual(["section.reopened", "section.locked"])
      const engagements = yield* Engagements
      const section = Option.getOrThrow(yield* engagements.findById(portalIds.engagement)).sections.find((s) => s.id === portalIds.hospitality)
      expect(section).toMatchObject({ due_at: at + 50, locks_at: at + 100, lock_setting: null })
    }))

  it.effect("a section draft save: values merged, a save counted, the section unchanged; refused when locked", () =>
    Effect.gen(function*() {
      const engagements = yield* Engagements
      const sectionId = portalIds.secondTravel
      const draft = yield* engagements.createAdvanceDraft({
        engagement_id: portalIds.secondEngagement,
        schema_id: portalIds.advance,
        subject_id: portalIds.artist,
        event_id: portalIds.festival,
        created_at: at
      })
      const save = (values: Record<string, unknown>, when: number) =>
        engagements.saveSection({
          engagement_id: portalIds.secondEngagement,
          section_id: sectionId,
          schema_id: portalIds.advance,
          draft_id: draft.id,
          values: Object.assign(Object.create(null) as Record<string, unknown>, values),
          saved_at: when
        })
      const saved = yield* save({ flight_number: "KL1" }, at + 1)
      expect([saved.values["flight_number"], saved.version, saved.auto_save_count, saved.status]).toEqual(["KL1", draft.version + 1, 1, "draft"])
      const again = yield* save({ travellers: 2 }, at + 2)
      expect([again.values["flight_number"], again.values["travellers"], again.auto_save_count]).toEqual(["KL1", 2, 2])
      const section = Option.getOrThrow(yield* engagements.findById(portalIds.secondEngagement)).sections.find((s) => s.id === sectionId)
      expect(section).toMatchObject({ status: "pending", submitted_at: null })
      const artists = yield* OrganiserArtists
      yield* artists.updateAdvanceSection(actor, portalIds.secondEngagement, sectionId, { locks_at: at + 3 }, at, () => [])
      expect(yield* failureTag(save({ travellers: 3 }, at + 3))).toBe("SectionLocked")
      expect(yield* failureTag(engagements.saveSection({
        engagement_id: portalIds.secondEngagement, section_id: "as-no-such", schema_id: portalIds.advance, draft_id: draft.id,
        values: Object.create(null) as Record<string, unknown>, saved_at: at
      }))).toBe("SectionNotFound")
      const stored = Option.getOrThrow(yield* engagements.findAdvanceDraft(portalIds.advance, portalIds.secondEngagement))
      expect([stored.values["travellers"], stored.auto_save_count]).toEqual([2, 2])
    }))

  it.effect("the engagement first, then the section; another organisation's engagement is not found", () =>
    Effect.gen(function*() {
      const artists = yield* OrganiserArtists
      const none = () => []
      const other: Actor = { organisation_id: portalIds.bareOrganisation, api_key_id: null }
      expect(yield* failureTag(artists.updateAdvanceSection(other, portalIds.engagement, portalIds.travel, {}, at, none))).toBe("EngagementNotFound")
      expect(yield* failureTag(artists.updateAdvanceSection(actor, portalIds.engagement, portalIds.bareTravel, {}, at, none))).toBe("AdvanceSectionNotFound")
    }))
}
