/** The engagement checks of the organiser conformance suite: creation, references, lists, portal links. */
import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { OrganiserAccess } from "../../../organiser/catalog/OrganiserAccess.js"
import { OrganiserCatalog } from "../../../organiser/catalog/OrganiserCatalog.js"
import { engagementKeyOf } from "../../../organiser/engagements/EngagementModel.js"
import { OrganiserArtists } from "../../../organiser/OrganiserArtists.js"
import { noSchedule } from "../../../portal/SectionLock.js"
import { failureTag, first, newActor, t0 } from "../organiserTestSupport.js"

type Check = Effect.Effect<void, unknown, OrganiserAccess | OrganiserArtists | OrganiserCatalog>

/** Two organisations; the first has an event "Fest" and an artist "The Band". */
const twoOrganisations = Effect.gen(function*() {
  const artists = yield* OrganiserArtists
  const catalog = yield* OrganiserCatalog
  const a = yield* newActor
  const b = yield* newActor
  const event = yield* catalog.createEvent(a, { name: "Fest", parent_event_id: null }, t0)
  const artist = yield* artists.createArtist(a, "The Band", t0)
  return { a, artist, artists, b, catalog, event }
})

export const engagementChecks: Readonly<Record<string, Check>> = {
  "engagements: created with their advance sections and audited, scoped, paged newest first": Effect.gen(function*() {
    const { a, artist, artists, b, catalog, event } = yield* twoOrganisations
    const sections = [{ name: "Travel", position: 2 }, { name: "Rider", position: -1 }, { name: "Stage", position: 2 }]
      .map((s) => ({ ...s, ...noSchedule }))
    const created = yield* artists.createEngagement(a, { event_id: event.id, master_artist_id: artist.id, contact_email: null, advance_sections: sections }, t0 + 1)
    expect(created).toMatchObject({ event_id: event.id, master_artist_id: artist.id, created_at: t0 + 1 })
    expect(created.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
    // By position, then id.
    expect(created.advance_sections.map((s) => s.name).slice(0, 1)).toEqual(["Rider"])
    expect(created.advance_sections.map((s) => s.position)).toEqual([-1, 2, 2])
    const [, second, third] = created.advance_sections
    expect((second?.id ?? "") < (third?.id ?? "")).toBe(true)
    for (const s of created.advance_sections) {
      expect(s).toEqual({ id: s.id, name: s.name, position: s.position, status: "pending", submitted_at: null, ...noSchedule })
    }
    expect(yield* artists.findEngagement(a.organisation_id, created.id)).toEqual(Option.some({ ...created, advance: {}, values: {} }))
    expect(yield* artists.findEngagement(b.organisation_id, created.id)).toEqual(Option.none())
    expect(yield* artists.findEngagement(a.organisation_id, "not-a-uuid")).toEqual(Option.none())
    const bare = yield* artists.createEngagement(a, { event_id: event.id, master_artist_id: artist.id, contact_email: null, advance_sections: [] }, t0 + 1)
    expect(bare.advance_sections).toEqual([])
    const newest = yield* artists.createEngagement(a, { event_id: event.id, master_artist_id: artist.id, contact_email: null, advance_sections: [] }, t0 + 2)
    const all = (yield* artists.listEngagements(a.organisation_id, first(), {})).items
    const tied = [created.id, bare.id].sort().reverse()
    expect(all.map((e) => e.id)).toEqual([newest.id, ...tied])
    expect(all.find((e) => e.id === created.id)).toEqual(created)
    const page1 = yield* artists.listEngagements(a.organisation_id, { limit: 2, after: undefined }, {})
    expect(page1.more).toBe(true)
    const last = page1.items.at(-1)
    const page2 = yield* artists.listEngagements(a.organisation_id, { limit: 2, after: last === undefined ? undefined : engagementKeyOf(last) }, {})
    expect([...page1.items, ...page2.items].map((e) => e.id)).toEqual(all.map((e) => e.id))
    expect(page2.more).toBe(false)
    expect((yield* artists.listEngagements(b.organisation_id, first(), {})).items).toEqual([])
    // An event with an engagement is in use.
    expect(yield* failureTag(catalog.deleteEvent(a, event.id, t0))).toBe("InUse")
    const actions = (yield* catalog.listAudit(a.organisation_id, first())).items.map((e) => [e.action, e.resource_id])
    expect(actions[0]).toEqual(["engagement.created", newest.id])
    expect(actions.filter(([action]) => action === "engagement.created").map(([, id]) => id).sort()).toEqual([created.id, bare.id, newest.id].sort())
  }),
  "engagements: a reference of another organisation or a soft-deleted artist writes nothing": Effect.gen(function*() {
    const { a, artist, artists, b, catalog, event } = yield* twoOrganisations
    const theirEvent = yield* catalog.createEvent(b, { name: "Theirs", parent_event_id: null }, t0)
    const theirArtist = yield* artists.createArtist(b, "Their Band", t0)
    const gone = yield* artists.createArtist(a, "Gone", t0)
    yield* artists.deleteArtist(a, gone.id, t0)
    const field = (event_id: string, master_artist_id: string) =>
      Effect.map(
        Effect.flip(artists.createEngagement(a, { event_id, master_artist_id, contact_email: null, advance_sections: [{ name: "x", position: 0, ...noSchedule }] }, t0)),
        (e) => (e._tag === "ReferenceInvalid" ? e.field : e._tag)
      )
    expect(yield* field(theirEvent.id, artist.id)).toBe("event_id")
    expect(yield* field("no-such-event", artist.id)).toBe("event_id")
    expect(yield* field(event.id, theirArtist.id)).toBe("master_artist_id")
    expect(yield* field(event.id, "no-such-artist")).toBe("master_artist_id")
    expect(yield* field(event.id, gone.id)).toBe("master_artist_id")
    expect((yield* artists.listEngagements(a.organisation_id, first(), {})).items).toEqual([])
    const actions = (yield* catalog.listAudit(a.organisation_id, first())).items.map((e) => e.action)
    expect(actions).not.toContain("engagement.created")
    // The event is still free to delete: nothing refers to it.
    yield* catalog.deleteEvent(a, event.id, t0)
  }),
  "portal links: only for the engagement's organisation (or the CLI), each one audited": Effect.gen(function*() {
    const { a, artist, artists, b, catalog, event } = yield* twoOrganisations
    const engagement = yield* artists.createEngagement(a, { event_id: event.id, master_artist_id: artist.id, contact_email: null, advance_sections: [] }, t0 + 1)
    // Fresh tokens on every run: a PostgreSQL test database outlives the run, and tokens are unique.
    const token = () => `t${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}${"z".repeat(20)}`
    expect(yield* failureTag(artists.issuePortalToken(b, engagement.id, token(), t0 + 1))).toBe("EngagementNotFound")
    expect(yield* failureTag(artists.issuePortalToken(a, "no-such-engagement", token(), t0 + 1))).toBe("EngagementNotFound")
    yield* artists.issuePortalToken(a, engagement.id, token(), t0 + 2)
    yield* artists.issuePortalToken(undefined, engagement.id, token(), t0 + 3)
    const entries = (yield* catalog.listAudit(a.organisation_id, first())).items
    expect(entries.slice(0, 3).map((e) => [e.action, e.resource_id, e.api_key_id])).toEqual([
      ["engagement.portal_link_created", engagement.id, null],
      ["engagement.portal_link_created", engagement.id, a.api_key_id],
      ["engagement.created", engagement.id, a.api_key_id]
    ])
    expect((yield* catalog.listAudit(b.organisation_id, first())).items).toEqual([])
    // A link changes nothing an organiser sees on the engagement.
    expect(Option.getOrThrow(yield* artists.findEngagement(a.organisation_id, engagement.id))).toEqual({ ...engagement, advance: {}, values: {} })
  }),
  "engagements: a contact, deadlines and locks set on create and by changes, each audited, scoped": Effect.gen(function*() {
    const artists = yield* OrganiserArtists
    const catalog = yield* OrganiserCatalog
    const a = yield* newActor
    const b = yield* newActor
    const event = yield* catalog.createEvent(a, { name: "Fest", parent_event_id: null }, t0)
    const artist = yield* artists.createArtist(a, "The Band", t0)
    const created = yield* artists.createEngagement(a, {
      event_id: event.id,
      master_artist_id: artist.id,
      contact_email: "manager@example.org",
      advance_sections: [
        { name: "Rider", position: 0, due_at: t0 + 5000, locks_at: t0 + 9000, lock_setting: null },
        { name: "Travel", position: 1, due_at: null, locks_at: null, lock_setting: true }
      ]
    }, t0 + 1)
    expect(created.contact_email).toBe("manager@example.org")
    const [rider, travel] = created.advance_sections
    expect(rider).toMatchObject({ name: "Rider", due_at: t0 + 5000, locks_at: t0 + 9000, lock_setting: null })
    expect(travel).toMatchObject({ name: "Travel", due_at: null, locks_at: null, lock_setting: true })
    const riderId = rider?.id ?? ""

    const cleared = yield* artists.updateEngagement(a, created.id, { contact_email: null }, t0 + 2)
    expect(cleared.contact_email).toBeNull()
    expect((yield* artists.updateEngagement(a, created.id, {}, t0 + 2)).contact_email).toBeNull()
    expect(yield* failureTag(artists.updateEngagement(b, created.id, { contact_email: "x@example.org" }, t0 + 2))).toBe("EngagementNotFound")

    // The events function sees the schedule before and after; what it answers is recorded with the change.
    const seen: Array<unknown> = []
    const changed = yield* artists.updateAdvanceSection(a, created.id, riderId, { lock_setting: false, due_at: null }, t0 + 3, (before, after) => {
      seen.push([before, after])
      return []
    })
    expect(seen).toEqual([[
      { due_at: t0 + 5000, locks_at: t0 + 9000, lock_setting: null },
      { due_at: null, locks_at: t0 + 9000, lock_setting: false }
    ].map((x) => expect.objectContaining(x))])
    expect(changed.advance_sections.find((s) => s.id === riderId)).toMatchObject({ due_at: null, locks_at: t0 + 9000, lock_setting: false })
    expect(Option.getOrThrow(yield* artists.findEngagement(a.organisation_id, created.id)).advance_sections)
      .toEqual(changed.advance_sections)
    const none = () => []
    expect(yield* failureTag(artists.updateAdvanceSection(b, created.id, riderId, {}, t0 + 3, none))).toBe("EngagementNotFound")
    expect(yield* failureTag(artists.updateAdvanceSection(a, "no-such-engagement", riderId, {}, t0 + 3, none))).toBe("EngagementNotFound")
    expect(yield* failureTag(artists.updateAdvanceSection(a, created.id, "no-such-section", {}, t0 + 3, none))).toBe("AdvanceSectionNotFound")
    expect(yield* failureTag(artists.updateAdvanceSection(a, created.id, travel?.id ?? "", {}, t0 + 3, none))).toBe("success")
    const actions = (yield* catalog.listAudit(a.organisation_id, first())).items.map((e) => [e.action, e.resource_type, e.resource_id])
    expect(actions.slice(0, 4)).toEqual([
      ["engagement_section.updated", "engagement", created.id],
      ["engagement_section.updated", "engagement", created.id],
      ["engagement.updated", "engagement", created.id],
      ["engagement.updated", "engagement", created.id]
    ])
    expect((yield* catalog.listAudit(b.organisation_id, first())).items).toEqual([])
  }),
  "engagements: the overdue filter keeps those with a pending section whose due date has passed": Effect.gen(function*() {
    const artists = yield* OrganiserArtists
    const catalog = yield* OrganiserCatalog
    const a = yield* newActor
    const event = yield* catalog.createEvent(a, { name: "Fest", parent_event_id: null }, t0)
    const artist = yield* artists.createArtist(a, "The Band", t0)
    const make = (due: number | null) =>
      artists.createEngagement(a, {
        event_id: event.id,
        master_artist_id: artist.id,
        contact_email: null,
        advance_sections: [{ name: "Rider", position: 0, due_at: due, locks_at: null, lock_setting: null }]
      }, t0)
    const early = yield* make(t0 + 100)
    const late = yield* make(t0 + 900)
    yield* make(null)
    const overdueAt = (at: number) =>
      Effect.map(artists.listEngagements(a.organisation_id, first(), { overdue_at: at }), (p) => p.items.map((e) => e.id).sort())
    expect(yield* overdueAt(t0 + 100)).toEqual([])
    expect(yield* overdueAt(t0 + 101)).toEqual([early.id])
    expect(yield* overdueAt(t0 + 1000)).toEqual([early.id, late.id].sort())
    expect((yield* artists.listEngagements(a.organisation_id, first(), {})).items).toHaveLength(3)
  })
}
