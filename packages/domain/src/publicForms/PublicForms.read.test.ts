import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { seedIds, seedTokens, volunteerRotatedAt } from "../memory/conformanceSeed.js"
import { InMemoryStore } from "../memory/InMemoryStore.js"
import { inWorld, seedNowMs } from "../testing/publicForms/publicFormsTestKit.js"
import { PublicForms } from "./PublicForms.js"

const rotatedMs = Date.parse(volunteerRotatedAt)
const day = 86_400_000

describe("PublicForms.getForm", () => {
  it.effect("the current token opens the form, with whether it accepts submissions", () =>
    inWorld(Effect.gen(function*() {
      const view = yield* (yield* PublicForms).getForm(seedTokens.volunteer)
      expect([view.schema.id, view.accepts_submissions]).toEqual([seedIds.volunteer, true])
      expect(view.schema.event).toEqual({ id: seedIds.festival, name: "Festival 2027" })
    })))

  it.effect.each([
    { case: "one second inside the grace window", offset: day - 1_000, found: true },
    { case: "at the end of the grace window", offset: day, found: false },
    { case: "one second outside the grace window", offset: day + 1_000, found: false }
  ])("the previous token $case → found: $found", ({ found, offset }) =>
    inWorld(Effect.gen(function*() {
      yield* TestClock.setTime(rotatedMs + offset)
      const forms = yield* PublicForms
      const outcome = yield* Effect.result(forms.getForm(seedTokens.volunteerPrevious))
      expect(outcome._tag === "Success").toBe(found)
      if (outcome._tag === "Failure") expect(outcome.failure._tag).toBe("FormNotFound")
      // The current token is not bound by the window.
      expect((yield* forms.getForm(seedTokens.volunteer)).schema.id).toBe(seedIds.volunteer)
    })))

  it.effect("the grace window follows the configuration", () =>
    inWorld(
      Effect.gen(function*() {
        yield* TestClock.setTime(rotatedMs + 59_000)
        const forms = yield* PublicForms
        expect((yield* forms.getForm(seedTokens.volunteerPrevious)).schema.id).toBe(seedIds.volunteer)
        yield* TestClock.adjust(1_000)
        expect((yield* Effect.flip(forms.getForm(seedTokens.volunteerPrevious)))._tag).toBe("FormNotFound")
      }),
      { config: { tokenGraceSeconds: 60 } }
    ))

  it.effect.each([
    { case: "an unknown token", token: "tok-unknown-000000001" },
    { case: "a draft form", token: seedTokens.draft },
    { case: "an archived form", token: seedTokens.archived },
    { case: "an artist_advance form, even with a public token", token: seedTokens.advance }
  ])("$case → FormNotFound", ({ token }) =>
    inWorld(Effect.gen(function*() {
      expect((yield* Effect.flip((yield* PublicForms).getForm(token)))._tag).toBe("FormNotFound")
    })))

  it.effect.each([
    { case: "a closed form", token: seedTokens.closed },
    { case: "a form not yet open", token: seedTokens.future }
  ])("$case is shown, not accepting submissions", ({ token }) =>
    inWorld(Effect.gen(function*() {
      expect((yield* (yield* PublicForms).getForm(token)).accepts_submissions).toBe(false)
    })))

  it.effect("a form opens at opens_at and closes at closes_at", () =>
    inWorld(Effect.gen(function*() {
      const forms = yield* PublicForms
      yield* TestClock.setTime(Date.parse("2028-01-01T00:00:00.000Z") - 1)
      expect((yield* forms.getForm(seedTokens.future)).accepts_submissions).toBe(false)
      yield* TestClock.adjust(1)
      expect((yield* forms.getForm(seedTokens.future)).accepts_submissions).toBe(true)
      yield* TestClock.setTime(Date.parse("2027-12-31T00:00:00.000Z") - 1)
      expect((yield* forms.getForm(seedTokens.volunteer)).accepts_submissions).toBe(true)
      yield* TestClock.adjust(1)
      expect((yield* forms.getForm(seedTokens.volunteer)).accepts_submissions).toBe(false)
    })))

  it.effect("a rotated schema answers on the new token at once", () =>
    inWorld(Effect.gen(function*() {
      const store = yield* InMemoryStore
      yield* store.updateSchema(seedIds.registration, (schema) => ({
        ...schema,
        public_token: "tok-registration-rotated-01",
        previous_public_token: seedTokens.registration,
        token_rotated_at: seedNowMs
      }))
      const forms = yield* PublicForms
      expect((yield* forms.getForm("tok-registration-rotated-01")).schema.id).toBe(seedIds.registration)
      expect((yield* forms.getForm(seedTokens.registration)).schema.id).toBe(seedIds.registration)
    })))
})

describe("PublicForms.timeSlots", () => {
  it.effect("a festival form lists the slots of its event and its children, sorted, with durations", () =>
    inWorld(Effect.gen(function*() {
      const slots = yield* (yield* PublicForms).timeSlots(seedTokens.volunteer)
      expect(slots.map((s) => s.id)).toEqual([
        "slot-setup",
        "slot-d1-gate-a",
        "slot-d1-gate-b",
        "slot-d1-bar",
        "slot-d1-bar-morning",
        "slot-d2-stage"
      ])
      expect(slots.map((s) => s.duration_hours)).toEqual([4, 24, 24, 0.33, 4, 4.25])
      expect(slots[0]).toEqual({
        id: "slot-setup",
        name: "Setup",
        date: "2027-08-19",
        start_time: "22:00",
        end_time: "02:00",
        // The seed's events name no zone: UTC.
        starts_at: Date.parse("2027-08-19T22:00:00Z"),
        ends_at: Date.parse("2027-08-20T02:00:00Z"),
        duration_hours: 4,
        signup_opens_at: null,
        signup_closes_at: null,
        event_id: seedIds.festival,
        event_name: "Festival 2027",
        capacity: null,
        remaining: null,
        waitlist: false,
        waitlisted: 0
      })
    })))

  it.effect("a form of a child event lists its own slots only", () =>
    inWorld(Effect.gen(function*() {
      const slots = yield* (yield* PublicForms).timeSlots(seedTokens.dayVolunteer)
      expect(slots.map((s) => s.id)).toEqual(["slot-d1-gate-a", "slot-d1-gate-b", "slot-d1-bar", "slot-d1-bar-morning"])
      expect(slots.every((s) => s.event_name === "Friday")).toBe(true)
    })))

  it.effect("a form that is not a volunteer form → TimeSlotsNotAvailable; the token is checked first", () =>
    inWorld(Effect.gen(function*() {
      const forms = yield* PublicForms
      expect((yield* Effect.flip(forms.timeSlots(seedTokens.registration)))._tag).toBe("TimeSlotsNotAvailable")
      expect((yield* Effect.flip(forms.timeSlots(seedTokens.draft)))._tag).toBe("FormNotFound")
      expect((yield* Effect.flip(forms.timeSlots("tok-unknown-000000001")))._tag).toBe("FormNotFound")
    })))

  it.effect("a closed volunteer form still lists its slots", () =>
    inWorld(
      Effect.gen(function*() {
        expect((yield* (yield* PublicForms).timeSlots(seedTokens.volunteer)).length).toBe(6)
      }),
      { at: Date.parse("2028-06-01T00:00:00.000Z") }
    ))
})

describe("PublicForms.sections", () => {
  it.effect("filtered, one per name (lowest position, then id), sorted by position then name", () =>
    inWorld(Effect.gen(function*() {
      const sections = yield* (yield* PublicForms).sections(seedTokens.volunteer)
      expect(sections).toEqual([
        { id: "sec-d1-bar", name: "Bar", type: "standard", position: 1 },
        { id: "sec-d2-camping", name: "Camping", type: "standard", position: 2 },
        { id: "sec-fest-info", name: "Info", type: "standard", position: 2 },
        { id: "sec-d1-bar-lower", name: "bar", type: "standard", position: 3 },
        { id: "sec-fest-tickets", name: "Tickets", type: "standard", position: 5 }
      ])
    })))

  it.effect("any public form lists its sections; a form without an event lists none; unknown token → 404", () =>
    inWorld(Effect.gen(function*() {
      const forms = yield* PublicForms
      expect((yield* forms.sections(seedTokens.registration)).length).toBe(5)
      expect(yield* forms.sections(seedTokens.noEvent)).toEqual([])
      expect((yield* forms.sections(seedTokens.dayVolunteer)).map((s) => s.id)).toEqual(["sec-d1-bar", "sec-night-watch", "sec-d1-bar-lower"])
      expect((yield* Effect.flip(forms.sections("tok-unknown-000000001")))._tag).toBe("FormNotFound")
    })))
})
