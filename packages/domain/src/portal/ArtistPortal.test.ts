import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import type { FormSchema } from "../forms/FormSchema.js"
import { emptyValues } from "../forms/Values.js"
import { FormsConfig } from "../FormsConfig.js"
import { clientAt } from "../limits/LimitPolicy.js"
import { InMemoryStore } from "../memory/InMemoryStore.js"
import { InMemoryPortal } from "../memory/portal/InMemoryPortal.js"
import { InMemoryPortalStore } from "../memory/portal/InMemoryPortalStore.js"
import { portalIds, portalNow, portalTokens } from "../memory/portal/portalFixture.js"
import { VersionConflict } from "../publicForms/errors.js"
import { reasonOf } from "../testing/publicForms/publicFormsTestKit.js"
import { ArtistPortal } from "./ArtistPortal.js"
import { Engagements } from "./Engagements.js"
import { ArtistPortalLive, maxSectionAttempts } from "./makeArtistPortal.js"

const ip = clientAt("203.0.113.7")
const now = Date.parse(portalNow)

const stores = () => Layer.mergeAll(InMemoryPortal.layer(), FormsConfig.layer())

const testLayer = () => ArtistPortalLive.layer.pipe(Layer.provideMerge(stores()))

/** The use cases over the in-memory Engagements as `wrapped` changes them (a layer built over the real one). */
const overEngagements = <E>(wrapped: Layer.Layer<Engagements, E, Engagements | InMemoryStore>) =>
  ArtistPortalLive.layer.pipe(Layer.provide(wrapped), Layer.provideMerge(stores()))

/** Each test gets a fresh store, at the fixture's instant. */
const run = <A, E>(effect: Effect.Effect<A, E, ArtistPortal | InMemoryStore | InMemoryPortalStore>) =>
  TestClock.setTime(now).pipe(Effect.andThen(effect), Effect.provide(testLayer()))

const values = (entries: Record<string, unknown>) => {
  const out = emptyValues()
  for (const [key, value] of Object.entries(entries)) out[key] = value
  return out
}
const plain = (map: object) => Object.fromEntries(Object.entries(map))

/** A section with no deadline and no lock, as the summary shows it. */
const open = { locked: false, due_at: null, locks_at: null, overdue: false }

const travel = { arrival_date: "2027-08-19", flight_number: "KL1234", travellers: 3 }

describe("ArtistPortal.summary", () => {
  it.effect("shows the engagement, its event, the artist and the sections by position then id", () =>
    run(Effect.gen(function*() {
      const answer = yield* (yield* ArtistPortal).summary(portalTokens.engagement, ip)
      expect(answer.value.engagement).toEqual({ id: portalIds.engagement, event: { id: portalIds.festival, name: "Portal Festival 2027" } })
      expect(answer.value.artist).toEqual({ id: portalIds.artist, name: "The Main Act" })
      expect(answer.value.sections).toEqual([
        { id: portalIds.hospitality, name: "Hospitality", status: "pending", submitted_at: null, available: true, ...open },
        { id: portalIds.travel, name: "Travel", status: "pending", submitted_at: null, available: true, ...open },
        { id: portalIds.travelLower, name: "travel", status: "pending", submitted_at: null, available: false, ...open },
        { id: portalIds.rider, name: "Rider", status: "pending", submitted_at: null, available: false, ...open }
      ])
      expect(answer.rateLimit).toEqual({ policy: "portal", limit: 30, window_seconds: 60, remaining: 29, reset_seconds: 60 })
    })))

  it.effect("an organisation without an artist_advance schema has every section unavailable", () =>
    run(Effect.gen(function*() {
      const answer = yield* (yield* ArtistPortal).summary(portalTokens.bareEngagement, ip)
      expect(answer.value.sections.map((s) => [s.id, s.available])).toEqual([[portalIds.bareTravel, false]])
    })))

  it.effect("an unknown token is PortalNotFound; a soft-deleted artist is ArtistGone", () =>
    run(Effect.gen(function*() {
      const portal = yield* ArtistPortal
      expect((yield* Effect.flip(portal.summary("ptok-unknown-000000000001", ip)))._tag).toBe("PortalNotFound")
      expect((yield* Effect.flip(portal.summary("", ip)))._tag).toBe("PortalNotFound")
      expect((yield* Effect.flip(portal.summary(portalTokens.goneEngagement, ip)))._tag).toBe("ArtistGone")
    })))

  it.effect("a token is compared exactly (no trimming, no case folding)", () =>
    run(Effect.gen(function*() {
      const portal = yield* ArtistPortal
      expect((yield* Effect.flip(portal.summary(portalTokens.engagement.toUpperCase(), ip)))._tag).toBe("PortalNotFound")
      expect((yield* Effect.flip(portal.summary(` ${portalTokens.engagement}`, ip)))._tag).toBe("PortalNotFound")
    })))
})

describe("ArtistPortal.section", () => {
  it.effect("shows a mapped section's fields by position then slug, and empty values before any submit", () =>
    run(Effect.gen(function*() {
      const answer = yield* (yield* ArtistPortal).section(portalTokens.engagement, portalIds.travel, ip)
      expect(answer.value.section).toEqual({ id: portalIds.travel, name: "Travel", status: "pending", submitted_at: null })
      expect(answer.value.fields.map((f) => f.slug)).toEqual(["arrival_date", "airline", "flight_number", "travellers"])
      expect(plain(answer.value.values)).toEqual({})
      expect(answer.rateLimit?.remaining).toBe(29)
    })))

  it.effect("the mapping is case-sensitive: `travel` does not map to `Travel`, nor does an unknown id", () =>
    run(Effect.gen(function*() {
      const portal = yield* ArtistPortal
      const lower = yield* reasonOf(portal.section(portalTokens.engagement, portalIds.travelLower, ip))
      expect(lower._tag).toBe("SectionNotFound")
      const rider = yield* reasonOf(portal.section(portalTokens.engagement, portalIds.rider, ip))
      expect(rider._tag).toBe("SectionNotFound")
      const other = yield* Effect.flip(portal.section(portalTokens.engagement, portalIds.secondTravel, ip))
      // Errors after the rate-limit step carry the limiter state.
      expect(other).toMatchObject({ _tag: "Refused", reason: { _tag: "SectionNotFound" }, rateLimit: { remaining: 27 } })
    })))

  it.effect("every section of an organisation without an advance schema is SectionNotFound", () =>
    run(Effect.gen(function*() {
      const error = yield* reasonOf((yield* ArtistPortal).section(portalTokens.bareEngagement, portalIds.bareTravel, ip))
      expect(error._tag).toBe("SectionNotFound")
    })))

  it.effect("checks the token before the section, and the artist before the section", () =>
    run(Effect.gen(function*() {
      const portal = yield* ArtistPortal
      expect((yield* Effect.flip(portal.section("ptok-unknown-000000000001", "nope", ip)))._tag).toBe("PortalNotFound")
      expect((yield* Effect.flip(portal.section(portalTokens.goneEngagement, "nope", ip)))._tag).toBe("ArtistGone")
    })))
})

describe("ArtistPortal.submitSection", () => {
  it.effect("submits: the section is submitted at now, and the section then shows the values", () =>
    run(Effect.gen(function*() {
      const portal = yield* ArtistPortal
      const answer = yield* portal.submitSection(portalTokens.engagement, portalIds.travel, values(travel), ip)
      expect(answer.value.section).toEqual({ id: portalIds.travel, name: "Travel", status: "submitted", submitted_at: now })
      expect(plain(answer.value.values)).toEqual(travel)
      const shown = yield* portal.section(portalTokens.engagement, portalIds.travel, ip)
      expect(plain(shown.value.values)).toEqual(travel)
      expect(shown.value.section.status).toBe("submitted")
      const summary = yield* portal.summary(portalTokens.engagement, ip)
      expect(summary.value.sections.find((s) => s.id === portalIds.travel)?.submitted_at).toBe(now)
    })))

  it.effect("a field edited in place (the schema's revision unchanged) is validated by its new rules", () =>
    run(Effect.gen(function*() {
      const portal = yield* ArtistPortal
      yield* portal.submitSection(portalTokens.engagement, portalIds.travel, values(travel), ip)
      const { data } = yield* InMemoryStore
      const schema = data.schemas.get(portalIds.advance)
      if (schema === undefined) return expect.fail("the fixture has an advance schema")
      const fields = schema.fields.map((field) =>
        field.slug === "travellers" ? { ...field, validation_rules: { min: 1, max: 2 } } : field
      )
      data.schemas.set(schema.id, { ...schema, fields })
      const error = yield* reasonOf(portal.submitSection(portalTokens.engagement, portalIds.travel, values({ travellers: 3 }), ip))
      expect(error).toMatchObject({ _tag: "ValidationFailed", fields: { travellers: [{ rule: "max" }] } })
    })))

  it.effect("the draft has key artist_advance:{engagement}, the artist as subject, the engagement's event; it stays a draft", () =>
    run(Effect.gen(function*() {
      yield* (yield* ArtistPortal).submitSection(portalTokens.engagement, portalIds.travel, values(travel), ip)
      const submissions = yield* (yield* InMemoryStore).submissions
      expect(submissions.map((s) => [s.schema_id, s.idempotency_key, s.subject_id, s.event_id, s.status, s.auto_save_count])).toEqual([
        [portalIds.advance, `artist_advance:${portalIds.engagement}`, portalIds.artist, portalIds.festival, "draft", 0]
      ])
    })))

  it.effect("records one section.submitted event with the section's values, in the same step", () =>
    run(Effect.gen(function*() {
      const answer = yield* (yield* ArtistPortal).submitSection(portalTokens.engagement, portalIds.travel, values(travel), ip)
      const store = yield* InMemoryStore
      const [submission] = yield* store.submissions
      const outbox = yield* store.outbox
      expect(outbox.map((row) => row.type)).toEqual(["section.submitted"])
      expect(JSON.parse(JSON.stringify(outbox[0]?.payload))).toEqual({
        engagement_id: portalIds.engagement,
        section_id: portalIds.travel,
        form_section_id: portalIds.travelSection,
        submission_id: submission?.id,
        values: travel
      })
      expect(answer.value.section.status).toBe("submitted")
    })))

  it.effect("conditions: an inactive field is not required, stays in the draft, and is left out of section.submitted", () =>
    run(Effect.gen(function*() {
      const portal = yield* ArtistPortal
      const { data } = yield* InMemoryStore
      const schema = data.schemas.get(portalIds.advance)
      if (schema === undefined) return expect.fail("the fixture has an advance schema")
      // The flight number only for those who fly, and then required.
      const fields = schema.fields.map((field) =>
        field.slug === "flight_number"
          ? { ...field, is_required: true, visible_if: { "!!": [{ var: "airline" }] } }
          : field
      )
      data.schemas.set(schema.id, { ...schema, fields })
      const sent = { arrival_date: "2027-08-19", flight_number: "KL1234" }
      const answer = yield* portal.submitSection(portalTokens.engagement, portalIds.travel, values(sent), ip)
      expect(plain(answer.value.values)).toEqual(sent)
      const outbox = yield* (yield* InMemoryStore).outbox
      expect((outbox[0]?.payload as { values: object }).values).toEqual({ arrival_date: "2027-08-19" })
      const refused = yield* reasonOf(portal.submitSection(portalTokens.engagement, portalIds.travel, values({ airline: "KLM", flight_number: null }), ip))
      expect(refused).toMatchObject({ _tag: "ValidationFailed", fields: { flight_number: [{ rule: "required" }] } })
    })))

  it.effect("a repeat submit reuses the draft, merges over it and moves submitted_at", () =>
    run(Effect.gen(function*() {
      const portal = yield* ArtistPortal
      yield* portal.submitSection(portalTokens.engagement, portalIds.travel, values(travel), ip)
      yield* TestClock.adjust(5_000)
      const again = yield* portal.submitSection(portalTokens.engagement, portalIds.travel, values({ travellers: 4 }), ip)
      expect(again.value.section.submitted_at).toBe(now + 5_000)
      expect(plain(again.value.values)).toEqual({ ...travel, travellers: 4 })
      const store = yield* InMemoryStore
      expect((yield* store.submissions).length).toBe(1)
      expect((yield* store.outbox).length).toBe(2)
    })))

  it.effect("sections share one draft: each submit writes only its section's slugs", () =>
    run(Effect.gen(function*() {
      const portal = yield* ArtistPortal
      yield* portal.submitSection(portalTokens.engagement, portalIds.travel, values({ ...travel, dietary: "vegan" }), ip)
      const hospitality = yield* portal.section(portalTokens.engagement, portalIds.hospitality, ip)
      expect(plain(hospitality.value.values)).toEqual({})
      yield* portal.submitSection(portalTokens.engagement, portalIds.hospitality, values({ dietary: "vegan", __proto__x: 1, constructor: "x" }), ip)
      const [submission] = yield* (yield* InMemoryStore).submissions
      expect(plain(submission?.values ?? {})).toEqual({ ...travel, dietary: "vegan" })
    })))

  it.effect("a missing required value is ValidationFailed with the limiter state, and nothing is written", () =>
    run(Effect.gen(function*() {
      const portal = yield* ArtistPortal
      const refused = yield* Effect.flip(portal.submitSection(portalTokens.engagement, portalIds.travel, values({ travellers: 50 }), ip))
      if (refused._tag !== "Refused") return expect.fail(`expected Refused, got ${refused._tag}`)
      const error = refused.reason
      expect(error._tag).toBe("ValidationFailed")
      if (error._tag !== "ValidationFailed") return
      expect(error.fields).toEqual({
        arrival_date: [{ rule: "required", message: expect.any(String) }],
        travellers: [{ rule: "max", message: expect.any(String) }]
      })
      expect(refused.rateLimit?.remaining).toBe(29)
      const store = yield* InMemoryStore
      expect(yield* store.submissions).toEqual([])
      expect(yield* store.outbox).toEqual([])
      const summary = yield* portal.summary(portalTokens.engagement, ip)
      expect(summary.value.sections.every((s) => s.status === "pending")).toBe(true)
    })))

  it.effect("values saved earlier satisfy `required` on a later submit (merged, then validated strictly)", () =>
    run(Effect.gen(function*() {
      const portal = yield* ArtistPortal
      yield* portal.submitSection(portalTokens.engagement, portalIds.travel, values(travel), ip)
      const later = yield* portal.submitSection(portalTokens.engagement, portalIds.travel, values({}), ip)
      expect(plain(later.value.values)).toEqual(travel)
      const cleared = yield* reasonOf(portal.submitSection(portalTokens.engagement, portalIds.travel, values({ arrival_date: null }), ip))
      expect(cleared._tag).toBe("ValidationFailed")
    })))

  it.effect("an unmapped section is SectionNotFound and writes nothing", () =>
    run(Effect.gen(function*() {
      const error = yield* reasonOf((yield* ArtistPortal).submitSection(portalTokens.engagement, portalIds.travelLower, values(travel), ip))
      expect(error._tag).toBe("SectionNotFound")
      expect(yield* (yield* InMemoryStore).outbox).toEqual([])
    })))

  it.effect("an unavailable store is Unavailable", () =>
    run(Effect.gen(function*() {
      yield* (yield* InMemoryStore).setUnavailable("down")
      const error = yield* Effect.flip((yield* ArtistPortal).submitSection(portalTokens.engagement, portalIds.travel, values(travel), ip))
      expect(error._tag).toBe("Unavailable")
    })))
})

describe("ArtistPortal.submitSection against a draft that keeps changing", () => {
  it.effect("reads, merges and validates again after each VersionConflict; after 50 refused writes 503; the draft holds nothing", () =>
    Effect.gen(function*() {
      let writes = 0
      let reads = 0
      const conflicting = Layer.effect(Engagements, Effect.gen(function*() {
        const engagements = yield* Engagements
        return Engagements.of({
          ...engagements,
          findAdvanceDraft: (schemaId, engagementId) =>
            Effect.sync(() => reads++).pipe(Effect.andThen(engagements.findAdvanceDraft(schemaId, engagementId))),
          submitSection: () => Effect.sync(() => writes++).pipe(Effect.andThen(Effect.fail(new VersionConflict({}))))
        })
      }))
      const layer = overEngagements(conflicting)
      const attempt = Effect.gen(function*() {
        const submit = (yield* ArtistPortal).submitSection(portalTokens.engagement, portalIds.travel, values(travel), ip)
        const error = yield* Effect.flip(submit)
        return { error, stored: yield* (yield* InMemoryStore).submissions }
      })
      yield* TestClock.setTime(now)
      const { error, stored } = yield* attempt.pipe(Effect.provide(layer))
      expect([error._tag, writes, reads]).toEqual(["Unavailable", maxSectionAttempts, maxSectionAttempts])
      // The draft was created (the values were valid) and never written.
      expect(stored.map((s) => [s.version, Object.keys(s.values).length])).toEqual([[1, 0]])
    }))
})

describe("ArtistPortal.submitSection when the advance form changes between its read and its write", () => {
  /**
   * The in-memory store with `change` applied to the advance schema just before the first section write (as an
   * organiser's PUT landing between the use case's read and its write): the store then sees the new revision.
   */
  const changedBeforeFirstWrite = (change: (schema: FormSchema) => FormSchema) => {
    const writes: Array<number | undefined> = []
    const changing = Layer.effect(Engagements, Effect.gen(function*() {
      const engagements = yield* Engagements
      const { data } = yield* InMemoryStore
      return Engagements.of({
        ...engagements,
        submitSection: (command) =>
          Effect.suspend(() => {
            writes.push(command.revision)
            const schema = data.schemas.get(command.schema_id)
            if (writes.length === 1 && schema !== undefined) data.schemas.set(schema.id, change(schema))
            return engagements.submitSection(command)
          })
      })
    }))
    const layer = overEngagements(changing)
    return { writes, layer }
  }
  const stricter = (schema: FormSchema): FormSchema => ({
    ...schema,
    revision: schema.revision + 1,
    fields: schema.fields.map((field) => field.slug === "travellers" ? { ...field, validation_rules: { min: 1, max: 2 } } : field)
  })

  it.effect("the values are validated again by the new rules: refused by them, nothing is written", () =>
    Effect.gen(function*() {
      const { writes, layer } = changedBeforeFirstWrite(stricter)
      yield* TestClock.setTime(now)
      const { error, stored, outbox, revision } = yield* Effect.gen(function*() {
        const error = yield* reasonOf((yield* ArtistPortal).submitSection(portalTokens.engagement, portalIds.travel, values(travel), ip))
        const store = yield* InMemoryStore
        return { error, stored: yield* store.submissions, outbox: yield* store.outbox, revision: store.data.schemas.get(portalIds.advance)?.revision }
      }).pipe(Effect.provide(layer))
      expect(error).toMatchObject({ _tag: "ValidationFailed", fields: { travellers: [{ rule: "max" }] } })
      // One write, at the revision first read; it was refused, and the draft (created empty) holds nothing.
      expect(writes).toEqual([(revision ?? 0) - 1])
      expect(stored.map((s) => [s.version, Object.keys(s.values).length])).toEqual([[1, 0]])
      expect(outbox).toEqual([])
    }))

  it.effect("values the new rules accept are written once, at the new revision", () =>
    Effect.gen(function*() {
      const { writes, layer } = changedBeforeFirstWrite((schema) => ({ ...schema, revision: schema.revision + 1 }))
      yield* TestClock.setTime(now)
      const { answer, outbox, revision } = yield* Effect.gen(function*() {
        const answer = yield* (yield* ArtistPortal).submitSection(portalTokens.engagement, portalIds.travel, values(travel), ip)
        const store = yield* InMemoryStore
        return { answer, outbox: yield* store.outbox, revision: store.data.schemas.get(portalIds.advance)?.revision }
      }).pipe(Effect.provide(layer))
      expect(plain(answer.value.values)).toEqual(travel)
      expect(answer.value.section.status).toBe("submitted")
      expect(writes).toEqual([(revision ?? 0) - 1, revision])
      expect(outbox.map((row) => row.type)).toEqual(["section.submitted"])
    }))
})

describe("ArtistPortal.submitSection when the advance form is deleted before the first write", () => {
  it.effect("the context is read again: the section is no longer available (SectionNotFound), nothing written", () =>
    Effect.gen(function*() {
      const deleting = Layer.effect(Engagements, Effect.gen(function*() {
        const engagements = yield* Engagements
        const { data } = yield* InMemoryStore
        return Engagements.of({
          ...engagements,
          createAdvanceDraft: (draft) =>
            Effect.suspend(() => {
              // An organiser's DELETE of the form (it has no submission yet) lands between the read and the write.
              data.schemas.delete(draft.schema_id)
              return engagements.createAdvanceDraft(draft)
            })
        })
      }))
      const layer = overEngagements(deleting)
      yield* TestClock.setTime(now)
      const { error, stored, outbox } = yield* Effect.gen(function*() {
        const error = yield* reasonOf((yield* ArtistPortal).submitSection(portalTokens.engagement, portalIds.travel, values(travel), ip))
        const store = yield* InMemoryStore
        return { error, stored: yield* store.submissions, outbox: yield* store.outbox }
      }).pipe(Effect.provide(layer))
      expect(error._tag).toBe("SectionNotFound")
      expect([stored, outbox]).toEqual([[], []])
    }))
})

describe("ArtistPortal rate limit", () => {
  it.effect("the three routes share 30 per minute per engagement and IP; the 31st is RateLimited", () =>
    run(Effect.gen(function*() {
      const portal = yield* ArtistPortal
      for (let i = 0; i < 10; i++) yield* portal.summary(portalTokens.engagement, ip)
      for (let i = 0; i < 10; i++) yield* portal.section(portalTokens.engagement, portalIds.travel, ip)
      for (let i = 0; i < 9; i++) yield* Effect.flip(portal.submitSection(portalTokens.engagement, portalIds.travel, values({}), ip))
      const last = yield* portal.section(portalTokens.engagement, portalIds.hospitality, ip)
      expect(last.rateLimit?.remaining).toBe(0)
      const refused = yield* Effect.flip(portal.summary(portalTokens.engagement, ip))
      expect(refused).toMatchObject({ _tag: "Refused", reason: { _tag: "RateLimited" } })
      if (refused._tag === "Refused") expect(refused.rateLimit).toEqual({ policy: "portal", limit: 30, window_seconds: 60, remaining: 0, reset_seconds: 60 })
      // Another IP, and another engagement, have their own budgets.
      expect((yield* portal.summary(portalTokens.engagement, clientAt("198.51.100.1"))).rateLimit?.remaining).toBe(29)
      expect((yield* portal.summary(portalTokens.secondEngagement, ip)).rateLimit?.remaining).toBe(29)
      // A refused request does not count; the window slides.
      yield* TestClock.adjust(60_000)
      expect((yield* portal.summary(portalTokens.engagement, ip)).rateLimit?.remaining).toBe(29)
    })))

  it.effect("404 and 410 answers do not count", () =>
    run(Effect.gen(function*() {
      const portal = yield* ArtistPortal
      for (let i = 0; i < 40; i++) {
        yield* Effect.flip(portal.summary("ptok-unknown-000000000001", ip))
        yield* Effect.flip(portal.summary(portalTokens.goneEngagement, ip))
      }
      expect((yield* portal.summary(portalTokens.engagement, ip)).rateLimit?.remaining).toBe(29)
      expect(yield* (yield* InMemoryStore).hits(`portal:${portalIds.goneEngagement}:${ip.address}`)).toEqual([])
    })))

  it.effect("the limit is configurable (FormsConfig.portalLimitPerMinute)", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(now)
      const portal = yield* ArtistPortal
      yield* portal.summary(portalTokens.engagement, ip)
      yield* portal.summary(portalTokens.engagement, ip)
      expect((yield* reasonOf(portal.summary(portalTokens.engagement, ip)))._tag).toBe("RateLimited")
    }).pipe(
      Effect.provide(
        ArtistPortalLive.layer.pipe(Layer.provideMerge(Layer.mergeAll(InMemoryPortal.layer(), FormsConfig.layer({ portalLimitPerMinute: 2 }))))
      )
    ))

  it.effect("a soft delete after issuing answers ArtistGone from then on", () =>
    run(Effect.gen(function*() {
      const portal = yield* ArtistPortal
      yield* portal.summary(portalTokens.engagement, ip)
      yield* (yield* InMemoryPortalStore).setArtistDeleted(portalIds.artist, now)
      expect((yield* Effect.flip(portal.summary(portalTokens.engagement, ip)))._tag).toBe("ArtistGone")
    })))
})

describe("ArtistPortal deadlines and locks", () => {
  const lock = (sectionId: string, patch: Parameters<InMemoryPortalStore["Service"]["setSectionSchedule"]>[1]) =>
    Effect.gen(function*() {
      yield* (yield* InMemoryPortalStore).setSectionSchedule(sectionId, patch)
    })
  const travelShown = Effect.gen(function*() {
    const summary = yield* (yield* ArtistPortal).summary(portalTokens.engagement, ip)
    const found = summary.value.sections.find((s) => s.id === portalIds.travel)
    return found === undefined ? undefined : { locked: found.locked, due_at: found.due_at, locks_at: found.locks_at, overdue: found.overdue }
  })

  it.effect("a section locked by hand refuses its POST with SectionLocked (counted, nothing written); its GET still shows it", () =>
    run(Effect.gen(function*() {
      const portal = yield* ArtistPortal
      yield* portal.submitSection(portalTokens.engagement, portalIds.travel, values(travel), ip)
      yield* lock(portalIds.travel, { lock_setting: true })
      const refused = yield* Effect.flip(portal.submitSection(portalTokens.engagement, portalIds.travel, values({ travellers: 2 }), ip))
      if (refused._tag !== "Refused") return expect.fail(`expected Refused, got ${refused._tag}`)
      expect(refused.reason._tag).toBe("SectionLocked")
      expect(refused.rateLimit?.remaining).toBe(28)
      const shown = yield* portal.section(portalTokens.engagement, portalIds.travel, ip)
      expect(plain(shown.value.values)).toEqual(travel)
      expect((yield* (yield* InMemoryStore).outbox).length).toBe(1)
      expect(yield* travelShown).toEqual({ locked: true, due_at: null, locks_at: null, overdue: false })
    })))

  it.effect("the lock is checked after the section and before validation", () =>
    run(Effect.gen(function*() {
      const portal = yield* ArtistPortal
      yield* lock(portalIds.travel, { lock_setting: true })
      yield* lock(portalIds.travelLower, { lock_setting: true })
      expect((yield* reasonOf(portal.submitSection(portalTokens.engagement, portalIds.travel, values({ travellers: 50 }), ip)))._tag)
        .toBe("SectionLocked")
      expect((yield* reasonOf(portal.submitSection(portalTokens.engagement, portalIds.travelLower, values({}), ip)))._tag)
        .toBe("SectionNotFound")
      expect((yield* reasonOf(portal.submitSection(portalTokens.engagement, "as-unknown", values({}), ip)))._tag)
        .toBe("SectionNotFound")
    })))

  it.effect("locks_at locks from its instant on; locked: false keeps it open; null gives it back to locks_at", () =>
    run(Effect.gen(function*() {
      const portal = yield* ArtistPortal
      const submit = (v: Record<string, unknown>) =>
        Effect.map(Effect.exit(reasonOf(portal.submitSection(portalTokens.engagement, portalIds.travel, values(v), ip))), (exit) =>
          exit._tag === "Success" ? exit.value._tag : "submitted")
      yield* lock(portalIds.travel, { locks_at: now + 1000 })
      expect(yield* travelShown).toEqual({ locked: false, due_at: null, locks_at: now + 1000, overdue: false })
      expect(yield* submit(travel)).toBe("submitted")
      yield* TestClock.adjust(1000)
      expect(yield* travelShown).toMatchObject({ locked: true })
      expect(yield* submit({})).toBe("SectionLocked")
      yield* lock(portalIds.travel, { lock_setting: false })
      expect(yield* travelShown).toMatchObject({ locked: false })
      expect(yield* submit({ travellers: 2 })).toBe("submitted")
      yield* lock(portalIds.travel, { lock_setting: null })
      expect(yield* submit({})).toBe("SectionLocked")
    })))

  it.effect("overdue: pending with due_at passed; a submitted section is never overdue", () =>
    run(Effect.gen(function*() {
      const portal = yield* ArtistPortal
      yield* lock(portalIds.travel, { due_at: now + 10 })
      yield* lock(portalIds.hospitality, { due_at: now + 10 })
      expect(yield* travelShown).toEqual({ locked: false, due_at: now + 10, locks_at: null, overdue: false })
      yield* TestClock.adjust(10)
      expect(yield* travelShown).toMatchObject({ overdue: false })
      yield* TestClock.adjust(1)
      expect(yield* travelShown).toMatchObject({ overdue: true })
      yield* portal.submitSection(portalTokens.engagement, portalIds.travel, values(travel), ip)
      expect(yield* travelShown).toMatchObject({ overdue: false })
      const summary = yield* portal.summary(portalTokens.engagement, ip)
      expect(summary.value.sections.find((s) => s.id === portalIds.hospitality)?.overdue).toBe(true)
    })))

  it.effect("a lock committed between the use case's read and its write: the write refuses it, nothing is written", () =>
    Effect.gen(function*() {
      const locking = Layer.effect(Engagements, Effect.gen(function*() {
        const engagements = yield* Engagements
        const portalStore = yield* InMemoryPortalStore
        return Engagements.of({
          ...engagements,
          submitSection: (command) =>
            portalStore.setSectionSchedule(command.section_id, { lock_setting: true }).pipe(
              Effect.andThen(engagements.submitSection(command))
            )
        })
      }))
      const layer = ArtistPortalLive.layer.pipe(Layer.provide(locking), Layer.provideMerge(stores()))
      yield* TestClock.setTime(now)
      const { error, outbox, submissions } = yield* Effect.gen(function*() {
        const error = yield* reasonOf((yield* ArtistPortal).submitSection(portalTokens.engagement, portalIds.travel, values(travel), ip))
        const store = yield* InMemoryStore
        return { error, outbox: yield* store.outbox, submissions: yield* store.submissions }
      }).pipe(Effect.provide(layer))
      expect(error._tag).toBe("SectionLocked")
      expect(outbox).toEqual([])
      expect(submissions.map((s) => Object.keys(s.values).length)).toEqual([0])
    }))
})

describe("ArtistPortal.saveSection (section drafts)", () => {
  it.effect("saves the section's values with relaxed rules: the section stays pending, no event, a save counted", () =>
    run(Effect.gen(function*() {
      const portal = yield* ArtistPortal
      // `arrival_date` is required: a half-filled section is saved all the same.
      const saved = yield* portal.saveSection(portalTokens.engagement, portalIds.travel, values({ flight_number: "KL1", extra: 1 }), ip)
      expect(saved.value.section).toEqual({ id: portalIds.travel, name: "Travel", status: "pending", submitted_at: null })
      expect(plain(saved.value.values)).toEqual({ flight_number: "KL1" })
      expect(saved.rateLimit?.remaining).toBe(29)
      const again = yield* portal.saveSection(portalTokens.engagement, portalIds.travel, values({ travellers: 2 }), ip)
      expect(plain(again.value.values)).toEqual({ flight_number: "KL1", travellers: 2 })
      const store = yield* InMemoryStore
      expect(yield* store.outbox).toEqual([])
      expect((yield* store.submissions).map((s) => [s.status, s.auto_save_count])).toEqual([["draft", 2]])
      const shown = yield* portal.section(portalTokens.engagement, portalIds.travel, ip)
      expect(plain(shown.value.values)).toEqual({ flight_number: "KL1", travellers: 2 })
      // A later submit finds the saved values (merged, then checked strictly).
      const submitted = yield* portal.submitSection(portalTokens.engagement, portalIds.travel, values({ arrival_date: "2027-08-19" }), ip)
      expect(plain(submitted.value.values)).toEqual({ flight_number: "KL1", travellers: 2, arrival_date: "2027-08-19" })
    })))

  it.effect("the other rules still apply (422, nothing written); an unmapped section is 404; a locked one 409", () =>
    run(Effect.gen(function*() {
      const portal = yield* ArtistPortal
      const refused = yield* reasonOf(portal.saveSection(portalTokens.engagement, portalIds.travel, values({ travellers: 50 }), ip))
      expect(refused._tag).toBe("ValidationFailed")
      if (refused._tag === "ValidationFailed") expect(Object.keys(refused.fields)).toEqual(["travellers"])
      expect(yield* (yield* InMemoryStore).submissions).toEqual([])
      expect((yield* reasonOf(portal.saveSection(portalTokens.engagement, portalIds.travelLower, values({}), ip)))._tag)
        .toBe("SectionNotFound")
      yield* (yield* InMemoryPortalStore).setSectionSchedule(portalIds.travel, { lock_setting: true })
      expect((yield* reasonOf(portal.saveSection(portalTokens.engagement, portalIds.travel, values({ travellers: 50 }), ip)))._tag)
        .toBe("SectionLocked")
    })))

  it.effect("a lock committed between the read and the write: the save refuses it, the draft keeps its values", () =>
    Effect.gen(function*() {
      const locking = Layer.effect(Engagements, Effect.gen(function*() {
        const engagements = yield* Engagements
        const portalStore = yield* InMemoryPortalStore
        return Engagements.of({
          ...engagements,
          saveSection: (command) =>
            portalStore.setSectionSchedule(command.section_id, { lock_setting: true }).pipe(
              Effect.andThen(engagements.saveSection(command))
            )
        })
      }))
      const layer = ArtistPortalLive.layer.pipe(Layer.provide(locking), Layer.provideMerge(stores()))
      yield* TestClock.setTime(now)
      const { error, submissions } = yield* Effect.gen(function*() {
        const error = yield* reasonOf((yield* ArtistPortal).saveSection(portalTokens.engagement, portalIds.travel, values(travel), ip))
        return { error, submissions: yield* (yield* InMemoryStore).submissions }
      }).pipe(Effect.provide(layer))
      expect(error._tag).toBe("SectionLocked")
      expect(submissions.map((s) => Object.keys(s.values).length)).toEqual([0])
    }))
})
