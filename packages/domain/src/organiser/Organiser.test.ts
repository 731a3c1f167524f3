import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { OrganiserAccess } from "../ports/OrganiserAccess.js"
import { InMemoryOrganiser } from "../testing/organiser/InMemoryOrganiser.js"
import { OrganiserLive } from "./makeOrganiser.js"
import { Organiser } from "./Organiser.js"

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
})
