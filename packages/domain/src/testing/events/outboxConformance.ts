/** Conformance of the Outbox: events appended by a submit, claimed (an attempt each), delivered, failed, interrupted, dead, retried. */
import { describe, expect } from "@effect/vitest"
import { Clock, Effect } from "effect"
import { TestClock } from "effect/testing"
import { type ClaimPolicy, interruptedAttemptError, Outbox, type OutboxEvent } from "../../events/Outbox.js"
import { seedIds } from "../../memory/conformanceSeed.js"
import { Submissions } from "../../publicForms/Submissions.js"
import { type ConformanceIt, draftOf, makeFresh, submitOf, values } from "../support.js"

const hour = 3_600_000
const policy: ClaimPolicy = { leaseMs: 60_000, maxAttempts: 10 }

/** Claims until nothing is due; the events of other tests are marked delivered on the way. */
const drain = Effect.gen(function*() {
  const outbox = yield* Outbox
  for (;;) {
    const { events, parked } = yield* outbox.claim(100, policy)
    if (events.length === 0 && parked.length === 0) return
    yield* Effect.forEach(events, (event) => outbox.markDelivered(event.id))
  }
})

const markerOf = (event: OutboxEvent): unknown => event.payload["marker"]

/** The events a claim leased. */
const claimed = (limit: number, with_: ClaimPolicy = policy) =>
  Effect.flatMap(Outbox, (outbox) => Effect.map(outbox.claim(limit, with_), (result) => result.events))

/** Runs `body` on a TestClock set to the live time: the outbox must read time from the calling fiber's Clock. */
const onTestClock = <A, E, R>(body: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    yield* TestClock.setTime(Date.now())
    return yield* body
  }).pipe(Effect.provide(TestClock.layer()))

export const outboxConformance = (it: ConformanceIt): void => {
  const fresh = makeFresh()

  /** A submitted submission whose one event carries a payload `marker`. */
  const submitWithEvent = (marker: string) =>
    Effect.gen(function*() {
      const submissions = yield* Submissions
      const { submission } = yield* submissions.createOrGet(draftOf(seedIds.volunteer, fresh("key-outbox")))
      const now = yield* Clock.currentTimeMillis
      const payload = { marker, submission_id: submission.id, values: { email: "a@b.nl" }, submitted_at: new Date(now).toISOString() }
      yield* submissions.submit(submitOf(submission, values({}), { submittedAt: now, events: [{ type: "submission.submitted", payload }] }))
      return payload
    })

  /** After draining what earlier tests left: one new event, and a filter keeping only that event's rows. */
  const oneFreshEvent = (prefix: string) =>
    Effect.gen(function*() {
      yield* drain
      const marker = fresh(prefix)
      yield* submitWithEvent(marker)
      return { marker, mine: (events: ReadonlyArray<OutboxEvent>) => events.filter((e) => markerOf(e) === marker) }
    })

  describe("Outbox", () => {
    it.effect("a submit appends its events, due at once; a stale submit appends none", () =>
      Effect.gen(function*() {
        const submissions = yield* Submissions
        const outbox = yield* Outbox
        yield* drain
        const { submission } = yield* submissions.createOrGet(draftOf(seedIds.volunteer, fresh("key-outbox")))
        yield* submissions.save(seedIds.volunteer, submission.id, values({ name: "Ada" }))
        const stale = { type: "submission.submitted" as const, payload: { marker: fresh("stale") } }
        yield* Effect.flip(submissions.submit(submitOf(submission, values({}), { events: [stale] })))
        const payload = yield* submitWithEvent(fresh("marker"))
        const events = yield* claimed(100)
        expect(events.length).toBe(1)
        // The claim counted the first attempt.
        expect(events[0]).toMatchObject({ type: "submission.submitted", payload, attempts: 1, last_error: null })
        expect(events[0]?.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
        yield* Effect.forEach(events, (event) => outbox.markDelivered(event.id))
      }))

    it.effect("a submit that loses a unique claim appends none of its events", () =>
      Effect.gen(function*() {
        const submissions = yield* Submissions
        const outbox = yield* Outbox
        yield* drain
        const claims = [{ slug: "email", normalized: `${fresh("held")}@example.org` }]
        const event = (marker: string) => ({ type: "submission.submitted" as const, payload: { marker } })
        const submittedAt = yield* Clock.currentTimeMillis
        const first = yield* submissions.createOrGet(draftOf(seedIds.volunteer, fresh("key-outbox")))
        yield* submissions.submit(submitOf(first.submission, values({}), { claims, submittedAt, events: [event("winner")] }))
        const second = yield* submissions.createOrGet(draftOf(seedIds.volunteer, fresh("key-outbox")))
        const lost = yield* Effect.flip(
          submissions.submit(submitOf(second.submission, values({}), { claims, submittedAt, events: [event("loser")] })))
        expect(lost._tag).toBe("UniqueTaken")
        const events = yield* claimed(100)
        expect(events.map(markerOf)).toEqual(["winner"])
        yield* Effect.forEach(events, (e) => outbox.markDelivered(e.id))
      }))

    it.effect("claim honours its limit and hides claimed events from the next claim", () =>
      Effect.gen(function*() {
        const outbox = yield* Outbox
        yield* drain
        for (let i = 0; i < 3; i++) yield* submitWithEvent(fresh("limit"))
        const first = yield* claimed(2)
        const second = yield* claimed(10)
        const third = yield* claimed(10)
        expect([first.length, second.length, third.length]).toEqual([2, 1, 0])
        expect(new Set([...first, ...second].map((e) => e.id)).size).toBe(3)
        yield* Effect.forEach([...first, ...second], (event) => outbox.markDelivered(event.id))
      }))

    it.effect("a failure is recorded against the attempt its claim counted: never counted twice, never by a stale holder", () =>
      Effect.gen(function*() {
        const outbox = yield* Outbox
        const { mine } = yield* oneFreshEvent("lifecycle")
        const [event] = mine(yield* claimed(10))
        if (event === undefined) return expect.fail("the submitted event was not claimed")
        expect(event.attempts).toBe(1)

        const now = yield* Clock.currentTimeMillis
        yield* outbox.markFailed(event.id, 1, "first failure", now - 1)
        // Attempt 1 has its outcome: a second record of it (a late or repeated one) changes nothing.
        yield* outbox.markFailed(event.id, 1, "stale", null)
        const again = mine(yield* claimed(10))
        expect(again.map((e) => [e.id, e.attempts, e.last_error])).toEqual([[event.id, 2, "first failure"]])
        yield* outbox.markFailed(event.id, 1, "stale", null)
        expect((yield* outbox.dead).some((e) => e.id === event.id)).toBe(false)

        yield* outbox.markFailed(event.id, 2, "second failure", now + hour)
        expect(mine(yield* claimed(10))).toEqual([])
        expect((yield* outbox.dead).some((e) => e.id === event.id)).toBe(false)
        expect(yield* outbox.retry(event.id)).toBe(false)
        yield* outbox.markDelivered(event.id)
      }))

    it.effect("failed, due again at its retry time, dead after the last attempt, retried, delivered", () =>
      Effect.gen(function*() {
        const outbox = yield* Outbox
        const { marker, mine } = yield* oneFreshEvent("lifecycle")
        const [event] = mine(yield* claimed(10))
        if (event === undefined) return expect.fail("the submitted event was not claimed")

        const now = yield* Clock.currentTimeMillis
        yield* outbox.markFailed(event.id, 1, "first failure", now - 1)
        const [second] = mine(yield* claimed(10))
        expect([second?.attempts, second?.last_error]).toEqual([2, "first failure"])
        yield* outbox.markFailed(event.id, 2, "second failure", now - 1)
        expect(mine(yield* claimed(10)).map((e) => e.attempts)).toEqual([3])
        yield* outbox.markFailed(event.id, 3, "last failure", null)
        expect(mine(yield* claimed(10))).toEqual([])
        const dead = (yield* outbox.dead).filter((e) => e.id === event.id)
        expect(dead.map((e) => [e.attempts, e.last_error, markerOf(e)])).toEqual([[3, "last failure", marker]])

        expect(yield* outbox.retry(event.id)).toBe(true)
        expect((yield* outbox.dead).some((e) => e.id === event.id)).toBe(false)
        expect(yield* outbox.retry(event.id)).toBe(false)
        expect(yield* outbox.retry("00000000-0000-4000-8000-00000000dead")).toBe(false)
        // Queued again: attempts kept, so the next claim counts the first attempt of a new round.
        expect(mine(yield* claimed(10)).map((e) => [e.id, e.attempts])).toEqual([[event.id, 4]])

        yield* outbox.markDelivered(event.id)
        // Delivered: a failure recorded afterwards changes nothing.
        yield* outbox.markFailed(event.id, 4, "late failure", null)
        yield* drain
        expect((yield* outbox.dead).some((e) => e.id === event.id)).toBe(false)
        expect(yield* outbox.retry(event.id)).toBe(false)
      }))

    it.effect("an attempt whose lease runs out without an outcome counts as interrupted; the 10th parks the event dead", () =>
      onTestClock(Effect.gen(function*() {
        const outbox = yield* Outbox
        const { mine } = yield* oneFreshEvent("interrupted")
        const short: ClaimPolicy = { leaseMs: 1_000, maxAttempts: 10 }
        let id = ""
        // Ten claims, none answered (a crash each time): each waits out the lease of the one before.
        for (let attempt = 1; attempt <= 10; attempt++) {
          const [event] = mine(yield* claimed(10, short))
          if (event === undefined) return expect.fail(`attempt ${attempt} was not claimed`)
          id = event.id
          expect([event.attempts, event.last_error]).toEqual([attempt, attempt === 1 ? null : interruptedAttemptError])
          yield* TestClock.adjust(999)
          expect(mine(yield* claimed(10, short))).toEqual([])
          yield* TestClock.adjust(1)
        }
        const { events, parked } = yield* outbox.claim(10, short)
        expect(mine(events)).toEqual([])
        expect(mine(parked).map((e) => [e.id, e.attempts, e.last_error])).toEqual([[id, 10, interruptedAttemptError]])
        const dead = (yield* outbox.dead).filter((e) => e.id === id)
        expect(dead.map((e) => [e.attempts, e.last_error])).toEqual([[10, interruptedAttemptError]])
        yield* TestClock.adjust(hour)
        expect(mine(yield* claimed(10, short))).toEqual([])

        // `retry` gives a new round: claimed as attempt 11; its failure is recorded normally.
        expect(yield* outbox.retry(id)).toBe(true)
        const [retried] = mine(yield* claimed(10, short))
        expect(retried?.attempts).toBe(11)
        yield* outbox.markFailed(id, 11, "eleventh", (yield* Clock.currentTimeMillis) - 1)
        const [twelfth] = mine(yield* claimed(10, short))
        expect([twelfth?.attempts, twelfth?.last_error]).toEqual([12, "eleventh"])
        yield* outbox.markDelivered(id)
        expect((yield* outbox.dead).some((e) => e.id === id)).toBe(false)
      })))

    it.effect("claimBatch: fresh events together, an interrupted one alone; markDeliveredMany delivers several at once", () =>
      onTestClock(Effect.gen(function*() {
        const outbox = yield* Outbox
        yield* drain
        const short: ClaimPolicy = { leaseMs: 1_000, maxAttempts: 10 }
        const markers = [fresh("batch-f"), fresh("batch-e"), fresh("batch-g")]
        const mine = (events: ReadonlyArray<OutboxEvent>) => events.filter((e) => markers.includes(String(markerOf(e))))
        yield* submitWithEvent(markers[0]!)
        const [f] = mine((yield* outbox.claimBatch(1, short)).events)
        if (f === undefined) return expect.fail("the first event was not claimed")
        yield* submitWithEvent(markers[1]!)
        yield* submitWithEvent(markers[2]!)
        yield* TestClock.adjust(1_000)
        // Due: E and G (fresh, due first) and F (its lease ran out without an outcome): F is left for a claim of its own.
        const fresh1 = mine((yield* outbox.claimBatch(10, short)).events)
        expect(fresh1.map((e) => [markerOf(e), e.attempts, e.last_error])).toEqual([[markers[1], 1, null], [markers[2], 1, null]])
        const alone = yield* outbox.claimBatch(10, short)
        expect([...alone.events, ...alone.parked].map((e) => [e.id, e.attempts, e.last_error])).toEqual([[f.id, 2, interruptedAttemptError]])
        yield* outbox.markDeliveredMany([...fresh1.map((e) => e.id), f.id, f.id, "not-a-uuid"])
        yield* outbox.markDeliveredMany([])
        // Delivered: a failure recorded afterwards changes nothing, and nothing of them is due again.
        yield* outbox.markFailed(f.id, 2, "late failure", null)
        yield* TestClock.adjust(hour)
        expect(mine((yield* outbox.claimBatch(10, short)).events)).toEqual([])
        expect((yield* outbox.dead).filter((e) => e.id === f.id)).toEqual([])
      })))

    it.effect("claimBatch parks an event alone when its interrupted attempt was the last of its round", () =>
      onTestClock(Effect.gen(function*() {
        const outbox = yield* Outbox
        const { mine } = yield* oneFreshEvent("batch-park")
        const round: ClaimPolicy = { leaseMs: 1_000, maxAttempts: 2 }
        for (let attempt = 1; attempt <= 2; attempt++) {
          expect(mine((yield* outbox.claimBatch(10, round)).events).map((e) => e.attempts)).toEqual([attempt])
          yield* TestClock.adjust(1_000)
        }
        const { events, parked } = yield* outbox.claimBatch(10, round)
        expect([mine(events), mine(parked).map((e) => [e.attempts, e.last_error])]).toEqual([[], [[2, interruptedAttemptError]]])
      })))
  })
}
