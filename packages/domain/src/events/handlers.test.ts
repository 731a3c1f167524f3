import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import type { FormField } from "../forms/FormField.js"
import { emptyValues, type Values } from "../forms/Values.js"
import { FormsConfig } from "../FormsConfig.js"
import { clientAt } from "../limits/LimitPolicy.js"
import { InMemoryStore } from "../memory/InMemoryStore.js"
import { InMemoryPortal } from "../memory/portal/InMemoryPortal.js"
import { portalIds, portalNow, portalTokens } from "../memory/portal/portalFixture.js"
import { ArtistPortal } from "../portal/ArtistPortal.js"
import { ArtistPortalLive } from "../portal/makeArtistPortal.js"
import { ValueTargets } from "../portal/ValueTargets.js"
import { Submissions } from "../publicForms/Submissions.js"
import { Enrichment } from "./Enrichment.js"
import { identityKey, makeIdentityMatch } from "./IdentityMatch.js"
import { submissionSubmitted } from "./LifecycleEvents.js"
import type { NewOutboxEvent, OutboxEvent } from "./Outbox.js"
import { SchemaCatalog } from "./SchemaCatalog.js"
import { makeTagSync, submissionTags } from "./TagSync.js"
import { makeValueApplying, mappedValues, parseMapsTo } from "./ValueApplying.js"

const now = Date.parse(portalNow)
const ip = clientAt("192.0.2.1")
const values = (entries: Record<string, unknown>): Values => {
  const out = emptyValues()
  for (const [key, value] of Object.entries(entries)) out[key] = value
  return out
}
const plain = (map: object) => Object.fromEntries(Object.entries(map))

const layer = () =>
  ArtistPortalLive.layer.pipe(Layer.provideMerge(Layer.mergeAll(InMemoryPortal.layer(), FormsConfig.layer())))

const run = <A, E>(effect: Effect.Effect<A, E, Layer.Success<ReturnType<typeof layer>>>) =>
  TestClock.setTime(now).pipe(Effect.andThen(effect), Effect.provide(layer()))

let sequence = 0
const asOutboxEvent = (event: NewOutboxEvent): OutboxEvent => ({ ...event, id: `evt-${++sequence}`, attempts: 0, last_error: null })

/** Submits a draft of the portal fixture's volunteer form; answers the event its submit recorded. */
const submitVolunteer = (submitted: Values, key: string) =>
  Effect.gen(function*() {
    const submissions = yield* Submissions
    const { submission } = yield* submissions.createOrGet({
      schema_id: portalIds.volunteer,
      idempotency_key: key,
      event_id: portalIds.festival,
      subject_id: null,
      values: values({}),
      language: "en"
    })
    const event = submissionSubmitted({
      submission_id: submission.id,
      schema_id: portalIds.volunteer,
      organisation_id: portalIds.organisation,
      event_id: portalIds.festival,
      values: submitted,
      submitted_at: now,
      language: "en"
    })
    yield* submissions.submit({
      schema_id: portalIds.volunteer,
      id: submission.id,
      expected_version: submission.version,
      values: submitted,
      claims: [],
      submitted_at: now,
      events: [event]
    })
    return { id: submission.id, event: asOutboxEvent(event) }
  })

const volunteer = Effect.gen(function*() {
  const schema = yield* (yield* SchemaCatalog).findById(portalIds.volunteer)
  if (Option.isNone(schema)) throw new Error("the fixture has no volunteer schema")
  return schema.value
})

describe("tag sync", () => {
  it.effect("the schema's tags plus the tags of every chosen option (strings, numbers, arrays), as a sorted set", () =>
    run(Effect.gen(function*() {
      const schema = yield* volunteer
      expect(submissionTags(schema, values({ shirt: " M ", skills: [1, "stage"] }))).toEqual(["2027", "bar", "crew", "shirt-m", "stage", "volunteer"])
      expect(submissionTags(schema, values({ shirt: "L" }))).toEqual(["2027", "volunteer"])
      expect(submissionTags(schema, values({ shirt: "m", skills: [] }))).toEqual(["2027", "volunteer"])
    })))

  it.effect("sets the submission's tags; a redelivery sets the same set again", () =>
    run(Effect.gen(function*() {
      const { id, event } = yield* submitVolunteer(values({ shirt: "S" }), "tag-sync-key-000000001")
      const handler = yield* makeTagSync
      const enrichment = yield* Enrichment
      yield* handler.handle(event)
      expect(yield* enrichment.submissionTags(id)).toEqual(["2027", "shirt-s", "volunteer"])
      yield* handler.handle(event)
      expect(yield* enrichment.submissionTags(id)).toEqual(["2027", "shirt-s", "volunteer"])
    })))

  it.effect("an unknown schema fails the delivery (retried, then dead)", () =>
    run(Effect.gen(function*() {
      const handler = yield* makeTagSync
      const event = asOutboxEvent(submissionSubmitted({
        submission_id: "s-x", schema_id: "fs-gone", organisation_id: "org", event_id: null, values: values({}), submitted_at: now, language: "en"
      }))
      expect((yield* Effect.flip(handler.handle(event)))).toMatchObject({ _tag: "HandlerInputMissing" })
    })))
})

describe("identity match", () => {
  it.effect("the first email field by position holding a value, lower-cased; else the first phone's digits", () =>
    run(Effect.gen(function*() {
      const schema = yield* volunteer
      expect(identityKey(schema, values({ email: "B@x.NL", work_email: " Work@X.nl " }))).toBe("work@x.nl")
      expect(identityKey(schema, values({ email: "B@x.NL", work_email: "  " }))).toBe("b@x.nl")
      expect(identityKey(schema, values({ phone: null, phone_alt: "+31 (0)6-12.34" }))).toBe("31061234")
      expect(identityKey(schema, values({ phone: "+31 6 1234 5678", phone_alt: "0101234567" }))).toBe("31612345678")
      expect(identityKey(schema, values({ shirt: "S" }))).toBeNull()
    })))

  it.effect("finds or creates the contact; it carries the union of its submissions' tags; redelivery changes nothing", () =>
    run(Effect.gen(function*() {
      const enrichment = yield* Enrichment
      const tagSync = yield* makeTagSync
      const identity = yield* makeIdentityMatch
      const first = yield* submitVolunteer(values({ email: "Ann@Example.nl", shirt: "S" }), "identity-key-000000001")
      const second = yield* submitVolunteer(values({ email: "ann@example.NL", skills: ["stage"] }), "identity-key-000000002")
      // Identity before tag sync on one, after on the other: the order of handlers does not matter.
      yield* identity.handle(first.event)
      yield* tagSync.handle(first.event)
      yield* tagSync.handle(second.event)
      yield* identity.handle(second.event)
      const contacts = yield* enrichment.contacts(portalIds.organisation)
      expect(contacts.map((c) => [c.key, c.tags])).toEqual([
        ["ann@example.nl", ["2027", "crew", "shirt-s", "stage", "volunteer"]]
      ])
      for (const event of [first.event, second.event, first.event]) {
        yield* identity.handle(event)
        yield* tagSync.handle(event)
      }
      expect(yield* enrichment.contacts(portalIds.organisation)).toEqual(contacts)
      const linked = yield* enrichment.contactOfSubmission(second.id)
      expect(Option.map(linked, (c) => c.id)).toEqual(Option.some(contacts[0]?.id))
    })))

  it.effect("a submission without an email or phone links to no contact", () =>
    run(Effect.gen(function*() {
      const { id, event } = yield* submitVolunteer(values({ shirt: "M" }), "identity-key-000000003")
      yield* (yield* makeIdentityMatch).handle(event)
      expect(Option.isNone(yield* (yield* Enrichment).contactOfSubmission(id))).toBe(true)
      expect(yield* (yield* Enrichment).contacts(portalIds.organisation)).toEqual([])
    })))
})

const field = (slug: string, maps_to: string | null): FormField => ({
  id: slug, section_id: "s", slug, label: slug, type: "text", is_required: false, options: null,
  validation_rules: null, is_unique: false, position: 1, maps_to
})

describe("value applying", () => {
  it("parses artist.<key> and engagement.<key> targets only", () => {
    expect(parseMapsTo("artist.dietary")).toEqual({ target: "artist", key: "dietary" })
    expect(parseMapsTo("engagement.a_1")).toEqual({ target: "engagement", key: "a_1" })
    for (const bad of [null, "", "artist.", "artist.Bad", "artist.1a", "artist.a-b", "venue.x", "artist.a.b", ` artist.a`, `artist.${"a".repeat(65)}`]) {
      expect(parseMapsTo(bad)).toBeNull()
    }
    expect(parseMapsTo(`artist.${"a".repeat(64)}`)).not.toBeNull()
  })

  it("maps only fields with a target and a value (null is a value)", () => {
    const mapped = mappedValues(
      [field("a", "artist.x"), field("b", "engagement.y"), field("c", null), field("d", "artist.z")],
      values({ a: 1, b: null, c: "no" })
    )
    expect([plain(mapped.artist), plain(mapped.engagement)]).toEqual([{ x: 1 }, { y: null }])
  })

  it.effect("a section submit writes its mapped values into profile and advance; other keys are kept", () =>
    run(Effect.gen(function*() {
      const portal = yield* ArtistPortal
      const targets = yield* ValueTargets
      yield* targets.apply({ engagement_id: portalIds.engagement, artist: values({ kept: true }), engagement: values({ stage: "Main" }) })
      yield* portal.submitSection(portalTokens.engagement, portalIds.travel, values({ arrival_date: "2027-08-19", flight_number: "KL1", travellers: 2 }), ip)
      yield* portal.submitSection(portalTokens.engagement, portalIds.hospitality, values({ dietary: "vegan", notes: "x", hotel: "Inn" }), ip)
      const handler = yield* makeValueApplying
      const rows = yield* (yield* InMemoryStore).outbox
      for (const row of rows) yield* handler.handle({ ...row })
      const read = yield* targets.read(portalIds.engagement)
      expect(Option.map(read, (o) => [plain(o.profile), plain(o.advance)])).toEqual(Option.some([
        { kept: true, dietary: "vegan" },
        { stage: "Main", arrival_date: "2027-08-19", flight: "KL1", hotel: "Inn" }
      ]))
    })))

  it.effect("a late redelivery of an older event writes the latest values, never older ones", () =>
    run(Effect.gen(function*() {
      const portal = yield* ArtistPortal
      yield* portal.submitSection(portalTokens.engagement, portalIds.travel, values({ arrival_date: "2027-08-19", flight_number: "OLD1" }), ip)
      yield* portal.submitSection(portalTokens.engagement, portalIds.travel, values({ flight_number: "NEW2" }), ip)
      const handler = yield* makeValueApplying
      const [older, newer] = yield* (yield* InMemoryStore).outbox
      if (older === undefined || newer === undefined) throw new Error("two events expected")
      yield* handler.handle(newer)
      yield* handler.handle(older)
      yield* handler.handle(older)
      const read = yield* (yield* ValueTargets).read(portalIds.engagement)
      expect(Option.map(read, (o) => plain(o.advance))).toEqual(Option.some({ arrival_date: "2027-08-19", flight: "NEW2" }))
    })))
})
