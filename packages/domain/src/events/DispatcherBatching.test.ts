import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { FormsConfig } from "../FormsConfig.js"
import { InMemoryPortal } from "../memory/portal/InMemoryPortal.js"
import { portalIds } from "../memory/portal/portalFixture.js"
import { Submissions } from "../publicForms/Submissions.js"
import { Unavailable } from "../shared/errors.js"
import { noJitter, now, outboxRows, values } from "../testing/events/eventsTestKit.js"
import { BuiltinHandlers } from "./BuiltinHandlers.js"
import { dispatchBatch } from "./Dispatcher.js"
import { Enrichment } from "./Enrichment.js"
import { EventHandlers } from "./EventHandlers.js"
import { submissionSubmitted } from "./LifecycleEvents.js"

/** The in-memory Enrichment, counting its calls; a batch naming `poison.id` fails, and so does its single write. */
const spied = (calls: Array<string>, poison: { id: string }) =>
  Layer.effect(Enrichment, Effect.gen(function*() {
    const real = yield* Enrichment
    const refuse = Effect.fail(new Unavailable({ reason: "poison" }))
    return Enrichment.of({
      ...real,
      setSubmissionTags: (id, tags) => Effect.suspend(() => (calls.push("setSubmissionTags"), id === poison.id ? refuse : real.setSubmissionTags(id, tags))),
      setSubmissionTagsMany: (items) =>
        Effect.suspend(() => (calls.push(`setSubmissionTagsMany:${items.length}`),
          items.some((i) => i.submission_id === poison.id) ? refuse : real.setSubmissionTagsMany(items))),
      linkContact: (link) => Effect.suspend(() => (calls.push("linkContact"), real.linkContact(link))),
      linkContacts: (links) => Effect.suspend(() => (calls.push(`linkContacts:${links.length}`), real.linkContacts(links)))
    })
  }))

const run = <A, E>(calls: Array<string>, poison: { id: string }, effect: Effect.Effect<A, E, any>) => {
  const base = Layer.mergeAll(InMemoryPortal.layer(), FormsConfig.layer())
  const registry = BuiltinHandlers.layer.pipe(Layer.provideMerge(EventHandlers.layer()), Layer.provide(spied(calls, poison)))
  return TestClock.setTime(now).pipe(Effect.andThen(effect), Effect.provide(registry.pipe(Layer.provideMerge(base)))) as Effect.Effect<A, E>
}

const submitVolunteer = (n: number) =>
  Effect.gen(function*() {
    const submissions = yield* Submissions
    const { submission } = yield* submissions.createOrGet({
      schema_id: portalIds.volunteer, idempotency_key: `batch-key-${String(n).padStart(10, "0")}`, event_id: portalIds.festival, subject_id: null, values: values({}), language: "en"
    })
    const submitted = values({ email: `Person${n}@Example.nl`, shirt: "M" })
    yield* submissions.submit({
      schema_id: portalIds.volunteer, id: submission.id, expected_version: submission.version, values: submitted, claims: [], submitted_at: now,
      events: [submissionSubmitted({ submission_id: submission.id, schema_id: portalIds.volunteer, organisation_id: portalIds.organisation, event_id: portalIds.festival, values: submitted, submitted_at: now, language: "en" })]
    })
    return submission.id
  })

describe("tag sync and identity match in batches", () => {
  it.effect("a batch of events makes one tags write and one links write, whatever its size", () => {
    const calls: Array<string> = []
    return run(calls, { id: "" }, Effect.gen(function*() {
      const ids = yield* Effect.forEach([1, 2, 3, 4, 5], submitVolunteer)
      expect(yield* dispatchBatch()).toMatchObject({ claimed: 5, delivered: 5, retrying: 0, dead: 0 })
      expect(calls.sort()).toEqual(["linkContacts:5", "setSubmissionTagsMany:5"])
      const enrichment = yield* Enrichment
      expect((yield* enrichment.contacts(portalIds.organisation)).map((c) => c.key)).toEqual(
        [1, 2, 3, 4, 5].map((n) => `person${n}@example.nl`)
      )
      for (const id of ids) expect(yield* enrichment.submissionTags(id)).toEqual(yield* enrichment.submissionTags(ids[0]!))
      expect((yield* outboxRows).every((row) => row.delivered_at === now && row.attempts === 1)).toBe(true)
    }))
  })

  it.effect("a poison event fails alone: its batch's write fails, each item is written on its own, the others are delivered", () => {
    const calls: Array<string> = []
    const poison = { id: "" }
    return run(calls, poison, Effect.gen(function*() {
      const ids = yield* Effect.forEach([1, 2, 3], submitVolunteer)
      poison.id = ids[1]!
      expect(yield* dispatchBatch(noJitter)).toMatchObject({ claimed: 3, delivered: 2, retrying: 1, dead: 0, nextRetryAt: now + 1_000 })
      expect(calls.sort()).toEqual(["linkContacts:2", "setSubmissionTags", "setSubmissionTags", "setSubmissionTags", "setSubmissionTagsMany:3"])
      const rows = yield* outboxRows
      const failed = rows.filter((row) => row.delivered_at === null)
      expect(failed.map((row) => [row.payload["submission_id"], row.last_error, row.available_at])).toEqual([
        [poison.id, "tag-sync: Unavailable", now + 1_000]
      ])
      const enrichment = yield* Enrichment
      expect((yield* enrichment.contacts(portalIds.organisation)).map((c) => c.key)).toEqual(["person1@example.nl", "person3@example.nl"])
    }))
  })
})
