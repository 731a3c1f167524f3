import { describe, expect, it } from "@effect/vitest"
import { Clock, Effect } from "effect"
import { TestClock } from "effect/testing"
import { InMemoryStore } from "../memory/InMemoryStore.js"
import { portalIds } from "../memory/portal/portalFixture.js"
import { Submissions } from "../publicForms/Submissions.js"
import { Unavailable } from "../shared/errors.js"
import {
  flaky,
  noJitter,
  now,
  outboxRow,
  outboxRows,
  runEvents,
  submitTravel,
  values
} from "../testing/events/eventsTestKit.js"
import { claimPolicy, dispatchBatch } from "./Dispatcher.js"
import { Enrichment } from "./Enrichment.js"
import type { EventHandler } from "./EventHandlers.js"
import { submissionSubmitted } from "./LifecycleEvents.js"
import { interruptedAttemptError, Outbox } from "./Outbox.js"

describe("dispatchBatch", () => {
  it.effect("delivers every claimed event to every handler of its type, then marks it delivered", () => {
    const { state, handler } = flaky(0)
    return runEvents([handler], Effect.gen(function*() {
      yield* submitTravel("KL1")
      yield* submitTravel("KL2")
      const result = yield* dispatchBatch()
      expect(result).toEqual({ claimed: 2, delivered: 2, retrying: 0, dead: 0, nextRetryAt: null, retryAts: [] })
      expect(state.applied.size).toBe(2)
      expect((yield* outboxRows).every((row) => row.delivered_at === now)).toBe(true)
      expect((yield* dispatchBatch()).claimed).toBe(0)
    }))
  })

  it.effect("an event type without handlers is delivered (nothing to do)", () =>
    runEvents([], Effect.gen(function*() {
      yield* submitTravel("KL1")
      expect((yield* dispatchBatch()).delivered).toBe(1)
    })))

  it.effect("a failure records the attempt, the error and the backoff; the event is due again then", () => {
    const { handler } = flaky(1)
    return runEvents([handler], Effect.gen(function*() {
      yield* submitTravel("KL1")
      const first = yield* dispatchBatch(noJitter)
      expect(first).toEqual({ claimed: 1, delivered: 0, retrying: 1, dead: 0, nextRetryAt: now + 1_000, retryAts: [now + 1_000] })
      const [row] = yield* outboxRows
      expect([row?.attempts, row?.last_error, row?.available_at]).toEqual([1, "flaky: Error: boom 1", now + 1_000])
      yield* TestClock.adjust(999)
      expect((yield* dispatchBatch(noJitter)).claimed).toBe(0)
      yield* TestClock.adjust(1)
      expect((yield* dispatchBatch(noJitter)).delivered).toBe(1)
    }))
  })

  it.effect("jitter comes from Effect's Random: at most 20% off the nominal delay", () => {
    const { handler } = flaky(1)
    return runEvents([handler], Effect.gen(function*() {
      yield* submitTravel("KL1")
      const result = yield* dispatchBatch()
      expect(result.nextRetryAt).not.toBeNull()
      const delay = (result.nextRetryAt ?? 0) - now
      expect(delay).toBeGreaterThanOrEqual(800)
      expect(delay).toBeLessThanOrEqual(1_000)
    }))
  })

  it.effect("a crash between the handlers and markDelivered delivers again, and the second delivery changes nothing", () =>
    runEvents([], Effect.gen(function*() {
      const submissions = yield* Submissions
      const { submission } = yield* submissions.createOrGet({
        schema_id: portalIds.volunteer, idempotency_key: "crash-key-0000000001", event_id: portalIds.festival, subject_id: null, values: values({}), language: "en"
      })
      const submitted = values({ email: "Crash@Example.nl", shirt: "M" })
      yield* submissions.submit({
        schema_id: portalIds.volunteer, id: submission.id, expected_version: submission.version, values: submitted, claims: [], submitted_at: now,
        events: [submissionSubmitted({ submission_id: submission.id, schema_id: portalIds.volunteer, organisation_id: portalIds.organisation, event_id: portalIds.festival, values: submitted, submitted_at: now, language: "en" })]
      })
      const outbox = yield* Outbox
      const crashing = Outbox.of({ ...outbox, markDeliveredMany: () => Effect.fail(new Unavailable({ reason: "crashed" })) })
      const crashed = yield* Effect.flip(dispatchBatch().pipe(Effect.provideService(Outbox, crashing)))
      expect(crashed._tag).toBe("Unavailable")
      const enrichment = yield* Enrichment
      const afterFirst = [yield* enrichment.submissionTags(submission.id), yield* enrichment.contacts(portalIds.organisation)]
      expect(afterFirst[1]).toHaveLength(1)
      // Claimed but never answered: hidden until the claim lapses, then delivered again.
      expect((yield* dispatchBatch()).claimed).toBe(0)
      yield* TestClock.adjust(claimPolicy().leaseMs)
      expect((yield* dispatchBatch()).delivered).toBe(1)
      expect([yield* enrichment.submissionTags(submission.id), yield* enrichment.contacts(portalIds.organisation)]).toEqual(afterFirst)
      // Two attempts: the crashed one, recorded as interrupted by the claim after its lease, and the delivery.
      expect((yield* outboxRows).map((row) => [row.attempts, row.last_error, row.delivered_at !== null]))
        .toEqual([[2, interruptedAttemptError, true]])
    }), { builtin: true }))

  it.effect("an event failing 10 times is parked dead with its last error; retry queues it again", () => {
    const { state, handler } = flaky(10)
    return runEvents([handler], Effect.gen(function*() {
      yield* submitTravel("KL1")
      for (let attempt = 1; attempt <= 10; attempt++) {
        const result = yield* dispatchBatch(noJitter)
        expect(result.claimed).toBe(1)
        expect(result.dead).toBe(attempt === 10 ? 1 : 0)
        yield* TestClock.adjust(300_000)
      }
      expect((yield* dispatchBatch()).claimed).toBe(0)
      const outbox = yield* Outbox
      const dead = yield* outbox.dead
      expect(dead.map((event) => [event.attempts, event.last_error])).toEqual([[10, "flaky: Error: boom 10"]])
      expect(state.applied.size).toBe(0)
      expect(yield* outbox.retry(dead[0]?.id ?? "")).toBe(true)
      expect((yield* dispatchBatch()).delivered).toBe(1)
      expect(state.applied.size).toBe(1)
      expect(yield* outbox.dead).toEqual([])
    }))
  })

  it.effect("a dead event queued again gets a full round: its next failure retries after 1 s, dead again at 20", () => {
    const { handler } = flaky(100)
    return runEvents([handler], Effect.gen(function*() {
      yield* submitTravel("KL1")
      const outbox = yield* Outbox
      const failRound = Effect.gen(function*() {
        const results: Array<number | null> = []
        for (let attempt = 1; attempt <= 10; attempt++) {
          const result = yield* dispatchBatch(noJitter)
          results.push(result.dead === 1 ? null : (result.nextRetryAt ?? 0) - (yield* Clock.currentTimeMillis))
          yield* TestClock.adjust(300_000)
        }
        return results
      })
      const schedule = [1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 128_000, 256_000, null]
      expect(yield* failRound).toEqual(schedule)
      const [dead] = yield* outbox.dead
      expect(yield* outbox.retry(dead?.id ?? "")).toBe(true)
      expect(yield* failRound).toEqual(schedule)
      expect((yield* outbox.dead).map((event) => event.attempts)).toEqual([20])
    }))
  })

  it.effect("a handler's defect, or a throw, fails the delivery like an error", () => {
    const dying: EventHandler = { name: "dying", type: "section.submitted", handle: () => Effect.die(new TypeError("bad")) }
    const throwing: EventHandler = {
      name: "throwing",
      type: "submission.submitted",
      handle: () => {
        throw new RangeError("thrown")
      }
    }
    return runEvents([dying, throwing], Effect.gen(function*() {
      yield* submitTravel("KL1")
      expect((yield* dispatchBatch()).retrying).toBe(1)
      expect((yield* outboxRows)[0]?.last_error).toBe("dying: TypeError: bad")
      const store = yield* InMemoryStore
      store.data.outbox.push({ ...outboxRow("00000000-0000-4000-9000-0000000000aa"), type: "submission.submitted" })
      yield* TestClock.adjust(1_000)
      yield* dispatchBatch()
      expect((yield* outboxRows).find((row) => row.type === "submission.submitted")?.last_error).toBe("throwing: RangeError: thrown")
    }))
  })

  it.effect("a payload that does not decode fails the built-in handlers, described without its values", () =>
    runEvents([], Effect.gen(function*() {
      const store = yield* InMemoryStore
      store.data.outbox.push({
        ...outboxRow("00000000-0000-4000-9000-0000000000bb"),
        payload: { submission_id: 42, values: { secret: "do-not-log@example.nl" } }
      })
      expect((yield* dispatchBatch()).retrying).toBe(1)
      const [row] = yield* outboxRows
      expect(row?.last_error).toBe("tag-sync: SchemaError: the payload does not decode")
    }), { builtin: true }))
})
