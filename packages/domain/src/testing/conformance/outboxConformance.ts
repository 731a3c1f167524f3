/** Conformance of the Outbox: events appended by a submit, claimed, delivered, failed, dead, retried. */
import { describe, expect } from "@effect/vitest"
import { Clock, Effect } from "effect"
import { Outbox, type OutboxEvent } from "../../ports/Outbox.js"
import { Submissions } from "../../ports/Submissions.js"
import { seedIds } from "../conformanceFixture.js"
import { type ConformanceIt, draftOf, makeFresh, submitOf, values } from "./support.js"

const hour = 3_600_000

/** Claims until nothing is due; the events of other tests are marked delivered on the way. */
const drain = Effect.gen(function*() {
  const outbox = yield* Outbox
  for (;;) {
    const batch = yield* outbox.claim(100)
    if (batch.length === 0) return
    yield* Effect.forEach(batch, (event) => outbox.markDelivered(event.id))
  }
})

const markerOf = (event: OutboxEvent): unknown => event.payload["marker"]

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
        const claimed = yield* outbox.claim(100)
        expect(claimed.length).toBe(1)
        expect(claimed[0]).toMatchObject({ type: "submission.submitted", payload, attempts: 0, last_error: null })
        expect(claimed[0]?.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
        yield* Effect.forEach(claimed, (event) => outbox.markDelivered(event.id))
      }))

    it.effect("claim honours its limit and hides claimed events from the next claim", () =>
      Effect.gen(function*() {
        const outbox = yield* Outbox
        yield* drain
        for (let i = 0; i < 3; i++) yield* submitWithEvent(fresh("limit"))
        const first = yield* outbox.claim(2)
        const second = yield* outbox.claim(10)
        const third = yield* outbox.claim(10)
        expect([first.length, second.length, third.length]).toEqual([2, 1, 0])
        expect(new Set([...first, ...second].map((e) => e.id)).size).toBe(3)
        yield* Effect.forEach([...first, ...second], (event) => outbox.markDelivered(event.id))
      }))

    it.effect("failed, due again at its retry time, dead after the last attempt, retried, delivered", () =>
      Effect.gen(function*() {
        const outbox = yield* Outbox
        yield* drain
        const marker = fresh("lifecycle")
        yield* submitWithEvent(marker)
        const mine = (events: ReadonlyArray<OutboxEvent>) => events.filter((e) => markerOf(e) === marker)
        const [event] = mine(yield* outbox.claim(10))
        if (event === undefined) return expect.fail("the submitted event was not claimed")

        const now = yield* Clock.currentTimeMillis
        yield* outbox.markFailed(event.id, "first failure", now - 1)
        const again = mine(yield* outbox.claim(10))
        expect(again.map((e) => [e.id, e.attempts, e.last_error])).toEqual([[event.id, 1, "first failure"]])

        yield* outbox.markFailed(event.id, "second failure", now + hour)
        expect(mine(yield* outbox.claim(10))).toEqual([])

        yield* outbox.markFailed(event.id, "last failure", null)
        expect(mine(yield* outbox.claim(10))).toEqual([])
        const dead = (yield* outbox.dead).filter((e) => e.id === event.id)
        expect(dead.map((e) => [e.attempts, e.last_error, markerOf(e)])).toEqual([[3, "last failure", marker]])

        expect(yield* outbox.retry(event.id)).toBe(true)
        expect((yield* outbox.dead).some((e) => e.id === event.id)).toBe(false)
        expect(yield* outbox.retry(event.id)).toBe(false)
        expect(yield* outbox.retry("00000000-0000-4000-8000-00000000dead")).toBe(false)
        expect(mine(yield* outbox.claim(10)).map((e) => e.id)).toEqual([event.id])

        yield* outbox.markDelivered(event.id)
        yield* drain
        expect((yield* outbox.dead).some((e) => e.id === event.id)).toBe(false)
        expect(yield* outbox.retry(event.id)).toBe(false)
      }))
  })
}
