import { describe, expect, it } from "@effect/vitest"
import { Clock, Effect, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { FormsConfig } from "../FormsConfig.js"
import { Unavailable } from "../Errors.js"
import { ArtistPortal } from "../portal/ArtistPortal.js"
import { ArtistPortalLayer } from "../portal/makeArtistPortal.js"
import { Enrichment } from "../ports/Enrichment.js"
import { Outbox, type OutboxEvent } from "../ports/Outbox.js"
import { OutboxSignal } from "../ports/OutboxSignal.js"
import { Submissions } from "../ports/Submissions.js"
import { claimLeaseMs } from "../testing/InMemoryOutbox.js"
import { InMemoryStore } from "../testing/InMemoryStore.js"
import { InMemoryPortal } from "../testing/portal/InMemoryPortal.js"
import { portalIds, portalNow, portalTokens } from "../testing/portal/portalFixture.js"
import { emptyValues, type Values } from "../Values.js"
import { defaultBackoff } from "./Backoff.js"
import { BuiltinHandlersLayer } from "./BuiltinHandlers.js"
import { Dispatcher, dispatchBatch } from "./Dispatcher.js"
import { type EventHandler, EventHandlers } from "./EventHandlers.js"
import { submissionSubmitted } from "./LifecycleEvents.js"

const now = Date.parse(portalNow)
const ip = "192.0.2.9"
const noJitter = { backoff: { ...defaultBackoff, jitter: 0 } }

const values = (entries: Record<string, unknown>): Values => {
  const out = emptyValues()
  for (const [key, value] of Object.entries(entries)) out[key] = value
  return out
}

const layer = (handlers: ReadonlyArray<EventHandler>, builtin = false) => {
  const registry = builtin
    ? BuiltinHandlersLayer.pipe(Layer.provideMerge(EventHandlers.layer(handlers)))
    : EventHandlers.layer(handlers)
  return Layer.mergeAll(ArtistPortalLayer, registry).pipe(
    Layer.provideMerge(Layer.mergeAll(InMemoryPortal.layer(), FormsConfig.layer()))
  )
}

const run = <A, E>(
  handlers: ReadonlyArray<EventHandler>,
  effect: Effect.Effect<A, E, Layer.Success<ReturnType<typeof layer>>>,
  builtin = false
) => TestClock.setTime(now).pipe(Effect.andThen(effect), Effect.provide(layer(handlers, builtin)))

/** Lets forked fibers run until they block again. */
const settle = Effect.forEach(Array.from({ length: 25 }), () => Effect.yieldNow, { discard: true })

const submitTravel = (flight: string) =>
  ArtistPortal.use((portal) =>
    portal.submitSection(portalTokens.engagement, portalIds.travel, values({ arrival_date: "2027-08-19", flight_number: flight }), ip))

const rows = InMemoryStore.use((store) => store.outbox)

/** A raw outbox row, due now, for payloads no writer would record. */
const outboxRow = (id: string) => ({
  id,
  type: "submission.submitted" as const,
  payload: {},
  attempts: 0,
  last_error: null,
  available_at: now,
  claimed_until: null,
  delivered_at: null,
  dead_at: null,
  created_at: now
})

/** A handler that fails its first `failures` calls and counts the calls it applied. */
const flaky = (failures: number) => {
  const state = { calls: 0, applied: new Set<string>() }
  const handler: EventHandler = {
    name: "flaky",
    type: "section.submitted",
    handle: (event: OutboxEvent) =>
      Effect.suspend(() => {
        state.calls += 1
        if (state.calls <= failures) return Effect.fail(new Error(`boom ${state.calls}`))
        state.applied.add(event.id)
        return Effect.void
      })
  }
  return { state, handler }
}

describe("dispatchBatch", () => {
  it.effect("delivers every claimed event to every handler of its type, then marks it delivered", () => {
    const { state, handler } = flaky(0)
    return run([handler], Effect.gen(function*() {
      yield* submitTravel("KL1")
      yield* submitTravel("KL2")
      const result = yield* dispatchBatch()
      expect(result).toEqual({ claimed: 2, delivered: 2, retrying: 0, dead: 0, nextRetryAt: null, retryAts: [] })
      expect(state.applied.size).toBe(2)
      expect((yield* rows).every((row) => row.delivered_at === now)).toBe(true)
      expect((yield* dispatchBatch()).claimed).toBe(0)
    }))
  })

  it.effect("an event type without handlers is delivered (nothing to do)", () =>
    run([], Effect.gen(function*() {
      yield* submitTravel("KL1")
      expect((yield* dispatchBatch()).delivered).toBe(1)
    })))

  it.effect("a failure records the attempt, the error and the backoff; the event is due again then", () => {
    const { handler } = flaky(1)
    return run([handler], Effect.gen(function*() {
      yield* submitTravel("KL1")
      const first = yield* dispatchBatch(noJitter)
      expect(first).toEqual({ claimed: 1, delivered: 0, retrying: 1, dead: 0, nextRetryAt: now + 1_000, retryAts: [now + 1_000] })
      const [row] = yield* rows
      expect([row?.attempts, row?.last_error, row?.available_at]).toEqual([1, "flaky: Error: boom 1", now + 1_000])
      yield* TestClock.adjust(999)
      expect((yield* dispatchBatch(noJitter)).claimed).toBe(0)
      yield* TestClock.adjust(1)
      expect((yield* dispatchBatch(noJitter)).delivered).toBe(1)
    }))
  })

  it.effect("jitter comes from Effect's Random: at most 20% off the nominal delay", () => {
    const { handler } = flaky(1)
    return run([handler], Effect.gen(function*() {
      yield* submitTravel("KL1")
      const result = yield* dispatchBatch()
      expect(result.nextRetryAt).not.toBeNull()
      const delay = (result.nextRetryAt ?? 0) - now
      expect(delay).toBeGreaterThanOrEqual(800)
      expect(delay).toBeLessThanOrEqual(1_000)
    }))
  })

  it.effect("a crash between the handlers and markDelivered delivers again, and the second delivery changes nothing", () =>
    run([], Effect.gen(function*() {
      const submissions = yield* Submissions
      const { submission } = yield* submissions.createOrGet({
        schema_id: portalIds.volunteer, idempotency_key: "crash-key-0000000001", event_id: portalIds.festival, subject_id: null, values: values({})
      })
      const submitted = values({ email: "Crash@Example.nl", shirt: "M" })
      yield* submissions.submit({
        schema_id: portalIds.volunteer, id: submission.id, expected_version: submission.version, values: submitted, claims: [], submitted_at: now,
        events: [submissionSubmitted({ submission_id: submission.id, schema_id: portalIds.volunteer, organisation_id: portalIds.organisation, event_id: portalIds.festival, values: submitted, submitted_at: now })]
      })
      const outbox = yield* Outbox
      const crashing = Outbox.of({ ...outbox, markDelivered: () => Effect.fail(new Unavailable({ reason: "crashed" })) })
      const crashed = yield* Effect.flip(dispatchBatch().pipe(Effect.provideService(Outbox, crashing)))
      expect(crashed._tag).toBe("Unavailable")
      const enrichment = yield* Enrichment
      const afterFirst = [yield* enrichment.submissionTags(submission.id), yield* enrichment.contacts(portalIds.organisation)]
      expect(afterFirst[1]).toHaveLength(1)
      // Claimed but never answered: hidden until the claim lapses, then delivered again.
      expect((yield* dispatchBatch()).claimed).toBe(0)
      yield* TestClock.adjust(claimLeaseMs)
      expect((yield* dispatchBatch()).delivered).toBe(1)
      expect([yield* enrichment.submissionTags(submission.id), yield* enrichment.contacts(portalIds.organisation)]).toEqual(afterFirst)
      expect((yield* rows).map((row) => [row.attempts, row.delivered_at !== null])).toEqual([[0, true]])
    }), true))

  it.effect("an event failing 10 times is parked dead with its last error; retry queues it again", () => {
    const { state, handler } = flaky(10)
    return run([handler], Effect.gen(function*() {
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
    return run([handler], Effect.gen(function*() {
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
    return run([dying, throwing], Effect.gen(function*() {
      yield* submitTravel("KL1")
      expect((yield* dispatchBatch()).retrying).toBe(1)
      expect((yield* rows)[0]?.last_error).toBe("dying: TypeError: bad")
      const store = yield* InMemoryStore
      store.data.outbox.push({ ...outboxRow("00000000-0000-4000-9000-0000000000aa"), type: "submission.submitted" })
      yield* TestClock.adjust(1_000)
      yield* dispatchBatch()
      expect((yield* rows).find((row) => row.type === "submission.submitted")?.last_error).toBe("throwing: RangeError: thrown")
    }))
  })

  it.effect("a payload that does not decode fails the built-in handlers, described without its values", () =>
    run([], Effect.gen(function*() {
      const store = yield* InMemoryStore
      store.data.outbox.push({
        ...outboxRow("00000000-0000-4000-9000-0000000000bb"),
        payload: { submission_id: 42, values: { secret: "do-not-log@example.nl" } }
      })
      expect((yield* dispatchBatch()).retrying).toBe(1)
      const [row] = yield* rows
      expect(row?.last_error).toBe("tag-sync: SchemaError: the payload does not decode")
    }), true))
})

describe("Dispatcher loop", () => {
  it.effect("a handler failing twice then succeeding is retried with backoff and applied once", () => {
    const { state, handler } = flaky(2)
    return run([handler], Effect.scoped(Effect.gen(function*() {
      yield* Dispatcher.start({ ...noJitter, pollIntervalMs: 3_600_000 })
      yield* submitTravel("KL1")
      yield* settle
      expect(state.calls).toBe(1)
      yield* TestClock.adjust(1_000)
      yield* settle
      expect(state.calls).toBe(2)
      yield* TestClock.adjust(1_999)
      yield* settle
      expect(state.calls).toBe(2)
      yield* TestClock.adjust(1)
      yield* settle
      expect([state.calls, state.applied.size]).toEqual([3, 1])
      const [row] = yield* rows
      expect([row?.attempts, row?.delivered_at]).toEqual([2, now + 3_000])
      yield* TestClock.adjust(600_000)
      yield* settle
      expect(state.calls).toBe(3)
    })))
  })

  it.effect("wakes on the signal without waiting for the poll interval; polls when no signal comes", () => {
    const { state, handler } = flaky(0)
    return run([handler], Effect.scoped(Effect.gen(function*() {
      yield* Dispatcher.start({ pollIntervalMs: 10_000 })
      yield* settle
      yield* submitTravel("KL1")
      yield* settle
      expect(state.applied.size).toBe(1)
      // Recorded without a notify: found by the next poll.
      const store = yield* InMemoryStore
      const [first] = store.data.outbox
      if (first === undefined) throw new Error("an event was expected")
      store.data.outbox.push({ ...first, id: "00000000-0000-4000-9000-00000000beef", delivered_at: null })
      yield* settle
      expect(state.applied.size).toBe(1)
      yield* TestClock.adjust(10_000)
      yield* settle
      expect(state.applied.size).toBe(2)
    })))
  })

  it.effect("stops when its scope closes: a delivery in flight is abandoned unrecorded", () => {
    const blocking: EventHandler = { name: "blocking", type: "section.submitted", handle: () => Effect.never }
    return run([blocking], Effect.gen(function*() {
      yield* Effect.scoped(Effect.gen(function*() {
        yield* Dispatcher.start()
        yield* submitTravel("KL1")
        yield* settle
      }))
      const [row] = yield* rows
      expect([row?.attempts, row?.last_error, row?.delivered_at]).toEqual([0, null, null])
      yield* submitTravel("KL2")
      yield* TestClock.adjust(600_000)
      yield* settle
      expect((yield* rows).every((r) => r.delivered_at === null && r.attempts === 0)).toBe(true)
    }))
  })

  it.effect("an unavailable store is waited out; delivery resumes when it is back", () => {
    const { state, handler } = flaky(0)
    return run([handler], Effect.scoped(Effect.gen(function*() {
      yield* submitTravel("KL1")
      const store = yield* InMemoryStore
      yield* store.setUnavailable("down")
      yield* Dispatcher.start({ pollIntervalMs: 2_000 })
      yield* settle
      yield* TestClock.adjust(2_000)
      yield* settle
      expect(state.applied.size).toBe(0)
      yield* store.setUnavailable(null)
      yield* TestClock.adjust(2_000)
      yield* settle
      expect(state.applied.size).toBe(1)
    })))
  })

  it.effect("Dispatcher.layer runs for the lifetime of the layer", () => {
    const { state, handler } = flaky(0)
    return run([handler], Effect.gen(function*() {
      yield* submitTravel("KL1")
      yield* Effect.scoped(Layer.build(Dispatcher.layer()).pipe(Effect.andThen(settle)))
      expect(state.applied.size).toBe(1)
      yield* (yield* OutboxSignal).notify
    }))
  })
})

describe("EventHandlers", () => {
  it.effect("handlers run in registration order; register layers add to the registry; a name registered again replaces", () => {
    const calls: Array<string> = []
    const named = (name: string): EventHandler => ({
      name,
      type: "section.submitted",
      handle: () => Effect.sync(() => void calls.push(name))
    })
    const registry = EventHandlers.register(Effect.succeed([named("b"), named("a")])).pipe(
      Layer.provideMerge(EventHandlers.layer([named("first")]))
    )
    return Effect.gen(function*() {
      const handlers = yield* EventHandlers
      yield* handlers.register(named("a"))
      const list = yield* handlers.handlersFor("section.submitted")
      expect(list.map((h) => h.name)).toEqual(["first", "b", "a"])
      expect(yield* handlers.handlersFor("submission.submitted")).toEqual([])
      for (const h of list) yield* h.handle({ id: "e", type: "section.submitted", payload: {}, attempts: 0, last_error: null })
      expect(calls).toEqual(["first", "b", "a"])
    }).pipe(Effect.provide(registry))
  })

  it.effect("the built-in layer registers tag sync, identity match and value applying", () =>
    run([], Effect.gen(function*() {
      const handlers = yield* EventHandlers
      expect((yield* handlers.handlersFor("submission.submitted")).map((h) => h.name)).toEqual(["tag-sync", "identity-match"])
      expect((yield* handlers.handlersFor("section.submitted")).map((h) => h.name)).toEqual(["value-applying"])
      expect(Option.isSome(yield* Effect.serviceOption(OutboxSignal))).toBe(true)
    }), true))
})
