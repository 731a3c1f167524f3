/**
 * The conformance suite of OrganiserAccess and OrganiserCatalog: every adapter (in memory, PostgreSQL)
 * must pass it unchanged. Each test makes organisations of its own, so tests sharing a store never meet.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Exit, type Layer, Option } from "effect"
import { eventKeyOf } from "../../organiser/catalog/CatalogModel.js"
import { OrganiserAccess } from "../../organiser/catalog/OrganiserAccess.js"
import { OrganiserCatalog } from "../../organiser/catalog/OrganiserCatalog.js"
import { OrganiserArtists } from "../../organiser/OrganiserArtists.js"
import type { CreatedKey } from "../../shared/paging.js"
import { zoneChecks } from "./catalog/zoneChecks.js"
import { engagementChecks } from "./engagements/organiserEngagementChecks.js"
import { failureTag, first, newActor, t0 } from "./organiserTestSupport.js"

export const organiserConformance = (
  name: string,
  makeLayer: () => Layer.Layer<OrganiserAccess | OrganiserCatalog | OrganiserArtists, unknown>,
  options: { readonly timeout?: number } = {}
): void => {
  describe(name, () => {
    layer(makeLayer(), { timeout: options.timeout ?? 60_000, excludeTestServices: true })("organiser ports", (it) => {
      it.effect("API keys: found by the key itself, listed without it, revoked once, touched forward only", () =>
        Effect.gen(function*() {
          const access = yield* OrganiserAccess
          const organisation = yield* access.createOrganisation("Keys Org")
          expect(yield* access.findOrganisation(organisation.id)).toEqual(Option.some(organisation))
          const key = `fok_${"a".repeat(20)}${Math.random().toString(36).slice(2)}`
          const created = Option.getOrThrow(
            yield* access.createApiKey({ organisation_id: organisation.id, name: null, key, created_at: t0 })
          )
          expect(created).toMatchObject({ organisation_id: organisation.id, name: null, prefix: key.slice(0, 8), created_at: t0, last_used_at: null, revoked_at: null })
          expect(yield* access.findApiKey(key)).toEqual(Option.some(created))
          expect(yield* access.findApiKey(`${key}x`)).toEqual(Option.none())
          expect(yield* access.createApiKey({ organisation_id: "no-such-org", name: null, key: `${key}y`, created_at: t0 })).toEqual(Option.none())
          yield* access.touchApiKey(created.id, t0 + 5000)
          yield* access.touchApiKey(created.id, t0 + 1000)
          expect(Option.getOrThrow(yield* access.findApiKey(key)).last_used_at).toBe(t0 + 5000)
          expect((yield* access.listApiKeys(organisation.id)).map((k) => k.id)).toEqual([created.id])
          expect(Option.getOrThrow(yield* access.revokeApiKey(created.id, t0 + 9000)).revoked_at).toBe(t0 + 9000)
          expect(Option.getOrThrow(yield* access.revokeApiKey(created.id, t0 + 9999)).revoked_at).toBe(t0 + 9000)
          expect(yield* access.revokeApiKey("00000000-0000-4000-8000-ffffffffffff", t0)).toEqual(Option.none())
          expect(yield* access.revokeApiKey("not-a-uuid", t0)).toEqual(Option.none())
        }))

      it.effect("events are scoped by organisation: another organisation's id is an unknown one", () =>
        Effect.gen(function*() {
          const catalog = yield* OrganiserCatalog
          const a = yield* newActor
          const b = yield* newActor
          const event = yield* catalog.createEvent(a, { name: "Fest", parent_event_id: null }, t0)
          expect(event).toEqual({ id: event.id, name: "Fest", parent_event_id: null, timezone: null, effective_timezone: "UTC", created_at: t0 })
          expect(yield* catalog.findEvent(a.organisation_id, event.id)).toEqual(Option.some(event))
          expect(yield* catalog.findEvent(b.organisation_id, event.id)).toEqual(Option.none())
          expect(yield* catalog.findEvent(a.organisation_id, "not-a-uuid")).toEqual(Option.none())
          expect((yield* catalog.listEvents(b.organisation_id, first())).items).toEqual([])
          expect(yield* failureTag(catalog.updateEvent(b, event.id, { name: "x" }, t0))).toBe("EventNotFound")
          expect(yield* failureTag(catalog.deleteEvent(b, event.id, t0))).toBe("EventNotFound")
          expect(yield* failureTag(catalog.createEvent(b, { name: "Day", parent_event_id: event.id }, t0))).toBe("ReferenceInvalid")
          expect(yield* failureTag(catalog.listTimeSlots(b.organisation_id, event.id, first()))).toBe("EventNotFound")
          expect(yield* failureTag(catalog.createTimeSlot(b, event.id, { name: "s", date: "2027-08-20", start_time: "08:00", end_time: "12:00", capacity: null }, t0))).toBe("EventNotFound")
          expect(yield* failureTag(catalog.listEventSections(b.organisation_id, event.id, first()))).toBe("EventNotFound")
          expect(yield* failureTag(catalog.createEventSection(b, event.id, { name: "s", type: "standard", show_in_registration: true, position: 0 }, t0))).toBe("EventNotFound")
          const slot = yield* catalog.createTimeSlot(a, event.id, { name: "s", date: "2027-08-20", start_time: "08:00", end_time: "12:00", capacity: 3 }, t0)
          const section = yield* catalog.createEventSection(a, event.id, { name: "Bar", type: "standard", show_in_registration: true, position: 1 }, t0)
          expect(yield* catalog.findTimeSlot(b.organisation_id, slot.id)).toEqual(Option.none())
          expect(yield* catalog.findEventSection(b.organisation_id, section.id)).toEqual(Option.none())
          expect(yield* failureTag(catalog.updateTimeSlot(b, slot.id, { name: "x" }, t0))).toBe("TimeSlotNotFound")
          expect(yield* failureTag(catalog.deleteTimeSlot(b, slot.id, t0))).toBe("TimeSlotNotFound")
          expect(yield* failureTag(catalog.updateEventSection(b, section.id, { name: "x" }, t0))).toBe("EventSectionNotFound")
          expect(yield* failureTag(catalog.deleteEventSection(b, section.id, t0))).toBe("EventSectionNotFound")
          expect((yield* catalog.listAudit(b.organisation_id, first())).items).toEqual([])
        }))

      it.effect("one level of events; a referenced event is IN_USE and nothing is written", () =>
        Effect.gen(function*() {
          const catalog = yield* OrganiserCatalog
          const a = yield* newActor
          const top = yield* catalog.createEvent(a, { name: "Fest", parent_event_id: null }, t0)
          const day = yield* catalog.createEvent(a, { name: "Day", parent_event_id: top.id }, t0 + 1)
          expect(yield* failureTag(catalog.createEvent(a, { name: "x", parent_event_id: day.id }, t0))).toBe("ReferenceInvalid")
          expect(yield* failureTag(catalog.updateEvent(a, top.id, { parent_event_id: day.id }, t0))).toBe("ReferenceInvalid")
          expect(yield* failureTag(catalog.updateEvent(a, top.id, { parent_event_id: top.id }, t0))).toBe("ReferenceInvalid")
          const other = yield* catalog.createEvent(a, { name: "Other", parent_event_id: null }, t0 + 2)
          // An event with children cannot become a child.
          expect(yield* failureTag(catalog.updateEvent(a, top.id, { parent_event_id: other.id }, t0))).toBe("ReferenceInvalid")
          expect(yield* catalog.updateEvent(a, day.id, { parent_event_id: null, name: "Day 1" }, t0 + 3)).toEqual({ ...day, name: "Day 1", parent_event_id: null })
          yield* catalog.updateEvent(a, day.id, { parent_event_id: top.id }, t0 + 4)
          const auditBefore = (yield* catalog.listAudit(a.organisation_id, first())).items.length
          expect(yield* failureTag(catalog.deleteEvent(a, top.id, t0))).toBe("InUse")
          yield* catalog.deleteEvent(a, day.id, t0 + 5)
          const slot = yield* catalog.createTimeSlot(a, top.id, { name: "s", date: "2027-08-20", start_time: "22:00", end_time: "02:00", capacity: null }, t0)
          expect(yield* failureTag(catalog.deleteEvent(a, top.id, t0))).toBe("InUse")
          yield* catalog.deleteTimeSlot(a, slot.id, t0)
          const section = yield* catalog.createEventSection(a, top.id, { name: "Bar", type: "standard", show_in_registration: false, position: 2 }, t0)
          expect(yield* failureTag(catalog.deleteEvent(a, top.id, t0))).toBe("InUse")
          yield* catalog.deleteEventSection(a, section.id, t0)
          yield* catalog.deleteEvent(a, top.id, t0 + 6)
          expect(yield* catalog.findEvent(a.organisation_id, top.id)).toEqual(Option.none())
          const actions = (yield* catalog.listAudit(a.organisation_id, first())).items.map((e) => e.action)
          // Every write and only writes: the refused ones left nothing.
          expect(actions.length).toBe(auditBefore + 6)
        }))

      it.effect("slots and sections: the shapes, §2 order and patches", () =>
        Effect.gen(function*() {
          const catalog = yield* OrganiserCatalog
          const a = yield* newActor
          const event = yield* catalog.createEvent(a, { name: "Fest", parent_event_id: null }, t0)
          const mk = (name: string, date: string, start: string) =>
            catalog.createTimeSlot(a, event.id, { name, date, start_time: start, end_time: "12:00", capacity: null }, t0)
          const late = yield* mk("B", "2027-08-21", "08:00")
          const early = yield* mk("Z", "2027-08-20", "09:00")
          const earliest = yield* mk("A", "2027-08-20", "08:00")
          expect(earliest).toEqual({ id: earliest.id, event_id: event.id, event_name: "Fest", name: "A", date: "2027-08-20", start_time: "08:00", end_time: "12:00", starts_at: Date.parse("2027-08-20T08:00:00Z"), ends_at: Date.parse("2027-08-20T12:00:00Z"), signup_opens_at: null, signup_closes_at: null, capacity: null, holders: 0, waitlist: false, waitlisted: 0 })
          const page = yield* catalog.listTimeSlots(a.organisation_id, event.id, { limit: 2, after: undefined })
          expect(page.items.map((s) => s.id)).toEqual([earliest.id, early.id])
          expect(page.more).toBe(true)
          const next = yield* catalog.listTimeSlots(a.organisation_id, event.id, { limit: 2, after: early })
          expect(next).toEqual({ items: [late], more: false })
          expect(yield* catalog.updateTimeSlot(a, late.id, { capacity: 5, name: "C" }, t0)).toEqual({ ...late, capacity: 5, name: "C" })
          expect(yield* catalog.updateTimeSlot(a, late.id, { capacity: null }, t0)).toEqual({ ...late, capacity: null, name: "C" })
          const s2 = yield* catalog.createEventSection(a, event.id, { name: "b", type: "standard", show_in_registration: true, position: 2 }, t0)
          const s1 = yield* catalog.createEventSection(a, event.id, { name: "a", type: "vip", show_in_registration: false, position: 2 }, t0)
          const s0 = yield* catalog.createEventSection(a, event.id, { name: "z", type: "standard", show_in_registration: true, position: -1 }, t0)
          expect(s0).toEqual({ id: s0.id, event_id: event.id, name: "z", type: "standard", show_in_registration: true, position: -1 })
          const sections = yield* catalog.listEventSections(a.organisation_id, event.id, first())
          expect(sections.items.map((s) => s.id)).toEqual([s0.id, s1.id, s2.id])
          expect(yield* catalog.updateEventSection(a, s2.id, { position: -5 }, t0)).toEqual({ ...s2, position: -5 })
        }))

      it.effect("an update racing a delete of one slot or section answers its result or not-found, never a defect", () =>
        Effect.gen(function*() {
          const catalog = yield* OrganiserCatalog
          const a = yield* newActor
          const event = yield* catalog.createEvent(a, { name: "Race", parent_event_id: null }, t0)
          const outcome = (exit: Exit.Exit<unknown, { readonly _tag: string }>) =>
            Exit.isSuccess(exit) ? "ok" : Option.getOrElse(Option.map(Exit.findErrorOption(exit), (e) => e._tag), () => "defect")
          for (let round = 0; round < 20; round++) {
            const slot = yield* catalog.createTimeSlot(a, event.id, { name: "s", date: "2027-08-20", start_time: "08:00", end_time: "12:00", capacity: null }, t0)
            const section = yield* catalog.createEventSection(a, event.id, { name: "x", type: "standard", show_in_registration: true, position: 1 }, t0)
            const [slotUpdate, slotDelete, sectionUpdate, sectionDelete] = yield* Effect.all([
              Effect.exit(catalog.updateTimeSlot(a, slot.id, { name: "t" }, t0)),
              Effect.exit(catalog.deleteTimeSlot(a, slot.id, t0)),
              Effect.exit(catalog.updateEventSection(a, section.id, { name: "y" }, t0)),
              Effect.exit(catalog.deleteEventSection(a, section.id, t0))
            ], { concurrency: "unbounded" })
            expect(["ok", "TimeSlotNotFound"]).toContain(outcome(slotUpdate))
            expect(outcome(slotDelete)).toBe("ok")
            expect(["ok", "EventSectionNotFound"]).toContain(outcome(sectionUpdate))
            expect(outcome(sectionDelete)).toBe("ok")
            expect(yield* catalog.findTimeSlot(a.organisation_id, slot.id)).toEqual(Option.none())
          }
        }))

      it.effect("keyset pages: paging while rows are added neither repeats nor misses a row", () =>
        Effect.gen(function*() {
          const catalog = yield* OrganiserCatalog
          const a = yield* newActor
          const existing = []
          // Equal created_at on purpose: ties are broken by id.
          for (let i = 0; i < 7; i++) existing.push(yield* catalog.createEvent(a, { name: `e${i}`, parent_event_id: null }, t0 + Math.floor(i / 3)))
          const seen: Array<string> = []
          let after: CreatedKey | undefined = undefined
          for (let round = 0; round < 10; round++) {
            const page = yield* catalog.listEvents(a.organisation_id, { limit: 2, after })
            seen.push(...page.items.map((e) => e.id))
            yield* catalog.createEvent(a, { name: `new${round}`, parent_event_id: null }, t0 + 100 + round)
            const last = page.items.at(-1)
            if (!page.more || last === undefined) break
            after = eventKeyOf(last)
          }
          const newestFirst = [...existing].sort((x, y) => y.created_at - x.created_at || (y.id < x.id ? -1 : y.id > x.id ? 1 : 0))
          expect(seen).toEqual(newestFirst.map((e) => e.id))
        }))

      it.effect("audit entries: ids and actions, newest first", () =>
        Effect.gen(function*() {
          const catalog = yield* OrganiserCatalog
          const a = yield* newActor
          const event = yield* catalog.createEvent(a, { name: "Secret name", parent_event_id: null }, t0)
          yield* catalog.updateEvent(a, event.id, { name: "Other secret" }, t0 + 1)
          yield* catalog.listEvents(a.organisation_id, first())
          yield* catalog.deleteEvent(a, event.id, t0 + 2)
          const entries = (yield* catalog.listAudit(a.organisation_id, first())).items
          expect(entries.map((e) => [e.action, e.resource_type, e.resource_id, e.api_key_id, e.at])).toEqual([
            ["event.deleted", "event", event.id, a.api_key_id, t0 + 2],
            ["event.updated", "event", event.id, a.api_key_id, t0 + 1],
            ["event.created", "event", event.id, a.api_key_id, t0]
          ])
          expect(JSON.stringify(entries)).not.toContain("secret")
          const page = yield* catalog.listAudit(a.organisation_id, { limit: 1, after: { created_at: t0 + 1, id: entries[1]?.id ?? "" } })
          expect(page.items.map((e) => e.action)).toEqual(["event.created"])
        }))

      it.effect("artists: scoped, newest first, soft deleted once (a repeated delete writes nothing)", () =>
        Effect.gen(function*() {
          const artists = yield* OrganiserArtists
          const catalog = yield* OrganiserCatalog
          const a = yield* newActor
          const b = yield* newActor
          const older = yield* artists.createArtist(a, "The Older", t0)
          const newer = yield* artists.createArtist(a, "The Newer", t0 + 1)
          expect(newer).toEqual({ id: newer.id, name: "The Newer", deleted_at: null, created_at: t0 + 1 })
          expect(yield* artists.findArtist(a.organisation_id, newer.id)).toEqual(Option.some({ ...newer, profile: {} }))
          expect(yield* artists.findArtist(b.organisation_id, newer.id)).toEqual(Option.none())
          expect(yield* artists.findArtist(a.organisation_id, "not-a-uuid")).toEqual(Option.none())
          expect((yield* artists.listArtists(a.organisation_id, first())).items.map((x) => x.id)).toEqual([newer.id, older.id])
          expect((yield* artists.listArtists(a.organisation_id, { limit: 1, after: undefined })).more).toBe(true)
          expect((yield* artists.listArtists(b.organisation_id, first())).items).toEqual([])
          expect(yield* failureTag(artists.deleteArtist(b, older.id, t0))).toBe("ArtistNotFound")
          yield* artists.deleteArtist(a, older.id, t0 + 5)
          yield* artists.deleteArtist(a, older.id, t0 + 9)
          expect(Option.getOrThrow(yield* artists.findArtist(a.organisation_id, older.id)).deleted_at).toBe(t0 + 5)
          const actions = (yield* catalog.listAudit(a.organisation_id, first())).items.map((e) => [e.action, e.resource_id])
          expect(actions).toEqual([["artist.deleted", older.id], ["artist.created", newer.id], ["artist.created", older.id]])
        }))

      // Engagements and portal links (organiserEngagementChecks.ts).
      for (const [title, check] of Object.entries(engagementChecks)) it.effect(title, () => check)
      for (const [title, check] of Object.entries(zoneChecks)) it.effect(title, () => check)
    })
  })
}
