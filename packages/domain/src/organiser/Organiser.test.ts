import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { emptySeed } from "../memory/Seed.js"
import { InMemoryStore } from "../memory/InMemoryStore.js"
import { InMemoryOrganiser } from "../memory/organiser/InMemoryOrganiser.js"
import { OrganiserAccess } from "./catalog/OrganiserAccess.js"
import { Organiser, OrganiserLive } from "./Organiser.js"

const TestLayer = OrganiserLive.layer.pipe(Layer.provideMerge(InMemoryOrganiser.layer))
const key = "fok_" + "k".repeat(43)

const setup = Effect.gen(function*() {
  const access = yield* OrganiserAccess
  const organisation = yield* access.createOrganisation("Org")
  const record = Option.getOrThrow(yield* access.createApiKey({ organisation_id: organisation.id, name: null, key, created_at: 0 }))
  return { organisation, record, access, organiser: yield* Organiser }
})

const failure = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.map(Effect.exit(effect), (exit) => (Exit.isFailure(exit) ? exit.cause.reasons.map((r) => ("error" in r ? r.error : r))[0] : undefined))

describe("Organiser", () => {
  it.effect("a malformed, unknown or revoked key is Unauthenticated; a valid one is its organisation's actor", () =>
    Effect.gen(function*() {
      const { organisation, record, access, organiser } = yield* setup
      expect(yield* organiser.authenticate(key)).toEqual({ organisation_id: organisation.id, api_key_id: record.id })
      for (const bad of ["short", `${key}x`, "fok_" + "k".repeat(43) + " ", "x".repeat(513)]) {
        expect(yield* failure(organiser.authenticate(bad))).toMatchObject({ _tag: "Unauthenticated" })
      }
      yield* access.revokeApiKey(record.id, 1)
      expect(yield* failure(organiser.authenticate(key))).toMatchObject({ _tag: "Unauthenticated" })
    }).pipe(Effect.provide(TestLayer)))

  it.effect("last_used_at is written at most once a minute per key", () =>
    Effect.gen(function*() {
      const { record, access, organiser } = yield* setup
      const lastUsed = Effect.map(access.listApiKeys(record.organisation_id), (keys) => keys[0]?.last_used_at)
      yield* TestClock.setTime(1_000_000)
      yield* organiser.authenticate(key)
      expect(yield* lastUsed).toBe(1_000_000)
      yield* TestClock.adjust(59_999)
      yield* organiser.authenticate(key)
      expect(yield* lastUsed).toBe(1_000_000)
      yield* TestClock.adjust(1)
      yield* organiser.authenticate(key)
      expect(yield* lastUsed).toBe(1_060_000)
    }).pipe(Effect.provide(TestLayer)))

  it.effect("bodies are checked member by member with dotted paths; the path id is checked first", () =>
    Effect.gen(function*() {
      const { organisation, record, organiser } = yield* setup
      const actor = { organisation_id: organisation.id, api_key_id: record.id }
      expect(yield* failure(organiser.createEvent(actor, { name: "x".repeat(201), extra: 1, parent_event_id: 3 }))).toMatchObject({
        _tag: "ValidationFailed",
        fields: { name: [{ rule: "max" }], extra: [{ rule: "invalid" }], parent_event_id: [{ rule: "invalid" }] }
      })
      expect(yield* failure(organiser.createEvent(actor, { name: "Day", parent_event_id: "nope" }))).toMatchObject({
        fields: { parent_event_id: [{ rule: "in" }] }
      })
      // 200 code points (emoji are two UTF-16 units each) is allowed.
      expect((yield* organiser.createEvent(actor, { name: "🎪".repeat(200) })).name).toBe("🎪".repeat(200))
      expect(yield* failure(organiser.createTimeSlot(actor, "no-such-event", { name: 1 }))).toMatchObject({ _tag: "EventNotFound" })
      const event = yield* organiser.createEvent(actor, { name: "Fest" })
      expect(yield* failure(organiser.createTimeSlot(actor, event.id, { date: "2027-02-30", start_time: "24:00", end_time: "8:00", capacity: 0 }))).toMatchObject({
        fields: {
          name: [{ rule: "required" }],
          date: [{ rule: "invalid" }],
          start_time: [{ rule: "invalid" }],
          end_time: [{ rule: "invalid" }],
          capacity: [{ rule: "invalid" }]
        }
      })
      expect(yield* failure(organiser.createEventSection(actor, event.id, { name: " ", position: 1.5, show_in_registration: "yes" }))).toMatchObject({
        fields: { name: [{ rule: "required" }], position: [{ rule: "invalid" }], show_in_registration: [{ rule: "invalid" }] }
      })
      expect(yield* organiser.createEventSection(actor, event.id, { name: "Bar" })).toMatchObject({ type: "standard", show_in_registration: true, position: 0 })
    }).pipe(Effect.provide(TestLayer)))

  it.effect("a new engagement: every member checked at its dotted path, references answered 422 in", () =>
    Effect.gen(function*() {
      const { organisation, record, organiser } = yield* setup
      const actor = { organisation_id: organisation.id, api_key_id: record.id }
      expect(yield* failure(organiser.createEngagement(actor, {}))).toMatchObject({
        _tag: "ValidationFailed",
        fields: { event_id: [{ rule: "required" }], master_artist_id: [{ rule: "required" }], advance_sections: [{ rule: "required" }] }
      })
      const sections = [
        { name: "ok", position: 1 },
        "x",
        { name: "x".repeat(201), position: 1.5, extra: true },
        {},
        { name: "🎪".repeat(200), position: -3 }
      ]
      const result = yield* failure(organiser.createEngagement(actor, { event_id: 7, master_artist_id: "", advance_sections: sections, portal_token: "t" }))
      expect(result).toMatchObject({
        fields: {
          event_id: [{ rule: "invalid" }],
          master_artist_id: [{ rule: "invalid" }],
          portal_token: [{ rule: "invalid" }],
          "advance_sections.1": [{ rule: "invalid" }],
          "advance_sections.2.name": [{ rule: "max" }],
          "advance_sections.2.position": [{ rule: "invalid" }],
          "advance_sections.2.extra": [{ rule: "invalid" }],
          "advance_sections.3.name": [{ rule: "required" }],
          "advance_sections.3.position": [{ rule: "required" }]
        }
      })
      expect(Object.keys((result as { fields: object }).fields)).not.toContain("advance_sections.0.name")
      expect(Object.keys((result as { fields: object }).fields)).not.toContain("advance_sections.4.name")
      const many = Array.from({ length: 101 }, (_, i) => ({ name: `s${i}`, position: i }))
      expect(yield* failure(organiser.createEngagement(actor, { event_id: "e", master_artist_id: "a", advance_sections: many }))).toMatchObject({
        fields: { advance_sections: [{ rule: "max" }] }
      })
      expect(yield* failure(organiser.createEngagement(actor, { event_id: "e", master_artist_id: "a", advance_sections: {} }))).toMatchObject({
        fields: { advance_sections: [{ rule: "invalid" }] }
      })
      // Both references at once: an unknown event and an unknown artist.
      expect(yield* failure(organiser.createEngagement(actor, { event_id: "e", master_artist_id: "a", advance_sections: [] }))).toMatchObject({
        fields: { event_id: [{ rule: "in" }], master_artist_id: [{ rule: "in" }] }
      })
      const event = yield* organiser.createEvent(actor, { name: "Fest" })
      const artist = yield* organiser.createArtist(actor, { name: "Band" })
      yield* organiser.deleteArtist(actor, artist.id)
      // A soft-deleted artist is no valid target: its portal would answer 410 from the start.
      expect(yield* failure(organiser.createEngagement(actor, { event_id: event.id, master_artist_id: artist.id, advance_sections: [] }))).toEqual(
        expect.objectContaining({ fields: { master_artist_id: [expect.objectContaining({ rule: "in" })] } })
      )
      const live = yield* organiser.createArtist(actor, { name: "Live" })
      const created = yield* organiser.createEngagement(actor, { event_id: event.id, master_artist_id: live.id, advance_sections: many.slice(0, 100) })
      expect(created.advance_sections).toHaveLength(100)
      expect(yield* organiser.getEngagement(actor, created.id)).toEqual({ ...created, advance: {}, values: {} })
    }).pipe(Effect.provide(TestLayer)))

  it.effect("an engagement's contact, a section's deadline and lock: checked, audited, events when the state moves", () =>
    Effect.gen(function*() {
      const { organisation, record, organiser } = yield* setup
      const actor = { organisation_id: organisation.id, api_key_id: record.id }
      const event = yield* organiser.createEvent(actor, { name: "Fest" })
      const artist = yield* organiser.createArtist(actor, { name: "Band" })
      const base = { event_id: event.id, master_artist_id: artist.id }
      expect(yield* failure(organiser.createEngagement(actor, {
        ...base,
        contact_email: "not an address",
        advance_sections: [{ name: "Rider", position: 0, due_at: "tomorrow", locks_at: 5, locked: "yes" }]
      }))).toMatchObject({
        fields: {
          contact_email: [{ rule: "email" }],
          "advance_sections.0.due_at": [{ rule: "invalid" }],
          "advance_sections.0.locks_at": [{ rule: "invalid" }],
          "advance_sections.0.locked": [{ rule: "invalid" }]
        }
      })
      yield* TestClock.setTime(Date.parse("2027-06-01T00:00:00Z"))
      const created = yield* organiser.createEngagement(actor, {
        ...base,
        contact_email: "manager@example.org",
        advance_sections: [{ name: "Rider", position: 0, due_at: "2027-05-31T00:00:00Z", locks_at: "2027-06-02T00:00:00+02:00" }]
      })
      const rider = created.advance_sections[0]
      expect(rider).toMatchObject({
        due_at: Date.parse("2027-05-31T00:00:00Z"),
        locks_at: Date.parse("2027-06-01T22:00:00Z"),
        lock_setting: null,
        locked: false,
        overdue: true,
        status: "pending"
      })
      const riderId = rider?.id ?? ""
      expect((yield* organiser.listEngagements(actor, { limit: 10, after: undefined }, { overdue: true })).items.map((e) => e.id))
        .toEqual([created.id])

      expect(yield* failure(organiser.updateEngagement(actor, created.id, { contact_email: "nope" }))).toMatchObject({
        fields: { contact_email: [{ rule: "email" }] }
      })
      expect(yield* failure(organiser.updateEngagement(actor, "no-such", { contact_email: "nope" }))).toMatchObject({ _tag: "EngagementNotFound" })
      expect((yield* organiser.updateEngagement(actor, created.id, { contact_email: null })).contact_email).toBeNull()

      // 404 engagement, then section, then the body.
      expect(yield* failure(organiser.updateAdvanceSection(actor, "no-such", "no-such", { locked: 1 }))).toMatchObject({ _tag: "EngagementNotFound" })
      expect(yield* failure(organiser.updateAdvanceSection(actor, created.id, "no-such", { locked: 1 }))).toMatchObject({ _tag: "AdvanceSectionNotFound" })
      expect(yield* failure(organiser.updateAdvanceSection(actor, created.id, riderId, { locked: 1, extra: 2 }))).toMatchObject({
        fields: { locked: [{ rule: "invalid" }], extra: [{ rule: "invalid" }] }
      })
      // Instants a store cannot hold: year 0000, and past 9999 once in UTC.
      expect(yield* failure(organiser.updateAdvanceSection(actor, created.id, riderId, {
        due_at: "0000-01-01T00:00:00Z",
        locks_at: "9999-12-31T23:00:00-05:00"
      }))).toMatchObject({ fields: { due_at: [{ rule: "invalid" }], locks_at: [{ rule: "invalid" }] } })
      const store = yield* InMemoryStore
      const outboxTypes = Effect.sync(() => store.data.outbox.map((e) => [e.type, e.payload]))
      const ids = { engagement_id: created.id, section_id: riderId }
      const locked = yield* organiser.updateAdvanceSection(actor, created.id, riderId, { locked: true })
      expect(locked.advance_sections[0]).toMatchObject({ locked: true, lock_setting: true })
      // A change that keeps the state records nothing, whichever member it sets.
      yield* organiser.updateAdvanceSection(actor, created.id, riderId, { locks_at: null, due_at: null })
      yield* organiser.updateAdvanceSection(actor, created.id, riderId, { locked: null, locks_at: "2027-05-01T00:00:00Z" })
      yield* organiser.updateAdvanceSection(actor, created.id, riderId, { locked: false })
      // locks_at set into the past while locked is null: the change locks it.
      yield* organiser.updateAdvanceSection(actor, created.id, riderId, { locked: null })
      // locks_at reached by time records nothing.
      yield* organiser.updateAdvanceSection(actor, created.id, riderId, { locks_at: "2027-06-01T00:00:01Z" })
      yield* TestClock.adjust(2000)
      expect((yield* organiser.getEngagement(actor, created.id)).advance_sections[0]).toMatchObject({ locked: true })
      expect(yield* outboxTypes).toEqual([
        ["section.locked", ids],
        ["section.reopened", ids],
        ["section.locked", ids],
        ["section.reopened", ids]
      ])
      const audit = (yield* organiser.auditLog(actor, { limit: 20, after: undefined })).items.map((e) => e.action)
      expect(audit.filter((a) => a === "engagement_section.updated")).toHaveLength(6)
      expect(audit.filter((a) => a === "engagement.updated")).toHaveLength(1)
    }).pipe(Effect.provide(OrganiserLive.layer.pipe(Layer.provideMerge(InMemoryOrganiser.layer), Layer.provideMerge(InMemoryStore.layer(emptySeed))))))
})
