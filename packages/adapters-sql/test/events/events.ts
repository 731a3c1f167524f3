/** Delivery scenarios of the lifecycle events on the SQL ports, shared by the PGlite and PostgreSQL test files. */
import { expect } from "@effect/vitest"
import type { Vitest } from "@effect/vitest"
import { Clock, Deferred, Effect, Fiber, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import { SqlClient } from "effect/sql"
import {
  Dispatcher,
  emptyValues,
  Enrichment,
  type EventHandler,
  EventHandlers,
  interruptedAttemptError,
  makeBuiltinHandlers,
  Submissions,
  type Values,
  ValueTargets
} from "@forms/domain"
import { dispatchBatch, submissionSubmitted } from "@forms/domain/internal"
import { claimAll, type PortalPorts, portalIds, type Ports, runSlowDispatchers, writeSection } from "@forms/domain/testing"
import { SqlOutbox } from "../../src/events/SqlOutbox.js"

export type EventsIt = Vitest.MethodsNonLive<Ports | PortalPorts | SqlClient.SqlClient>

export const values = (entries: Record<string, unknown>): Values => {
  const out = emptyValues()
  for (const [key, value] of Object.entries(entries)) out[key] = value
  return out
}

const run = Math.random().toString(36).slice(2, 10)
let counter = 0
/** A name unique to this run (keys, emails). */
export const fresh = (prefix: string): string => `${prefix}-${run}-${++counter}`

/** A handler of `type` counting its calls per event id. */
export const counting = (type: EventHandler["type"]) => {
  const calls = new Map<string, number>()
  const handler: EventHandler = {
    name: "counting",
    type,
    handle: (event) => Effect.sync(() => void calls.set(event.id, (calls.get(event.id) ?? 0) + 1))
  }
  return { calls, handler }
}

/** A registry of the built-in handlers (over the SQL ports in context) followed by `extra`. */
export const registryWith = (extra: ReadonlyArray<EventHandler>) =>
  Effect.map(makeBuiltinHandlers, (builtins) => EventHandlers.layer([...builtins, ...extra]))

/** Creates and submits a draft of the fixture's volunteer form, recording its `submission.submitted` event. */
export const submitVolunteer = (submitted: Values) =>
  Effect.gen(function*() {
    const submissions = yield* Submissions
    const { submission } = yield* submissions.createOrGet({
      schema_id: portalIds.volunteer, idempotency_key: fresh("events-key-0000"), event_id: portalIds.festival, subject_id: null, values: values({}), language: "en"
    })
    const at = (yield* Clock.currentTimeMillis) - 1_000
    const event = submissionSubmitted({
      submission_id: submission.id, schema_id: portalIds.volunteer, organisation_id: portalIds.organisation,
      event_id: portalIds.festival, values: submitted, submitted_at: at, language: "en"
    })
    return yield* submissions.submit({
      schema_id: portalIds.volunteer, id: submission.id, expected_version: submission.version, values: submitted,
      claims: [], submitted_at: at, events: [event]
    })
  })

/** Submits one of the race engagement's two sections (alternating): records one `section.submitted`. */
export const submitRace = (i: number, at: number) =>
  writeSection({
    engagement_id: portalIds.confRace, section_id: i % 2 === 0 ? portalIds.confRaceTravel : portalIds.confRaceHospitality,
    schema_id: portalIds.advance, form_section_id: i % 2 === 0 ? portalIds.travelSection : portalIds.hospitalitySection,
    subject_id: portalIds.confArtist, event_id: portalIds.festival, values: values({ [`n${i}`]: i }), submitted_at: at + i
  })

/** Lets database round trips in flight progress: a few real milliseconds (the TestClock does not move). */
const realPause = Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, 5)))

/**
 * The scenarios, on PGlite and PostgreSQL. `client` makes a connection pool of the dispatchers' own (on
 * PostgreSQL); without it they share the test's client (PGlite has one connection).
 */
export const eventScenarios = (it: EventsIt, client?: () => Layer.Layer<SqlClient.SqlClient, unknown>): void => {
  it.effect("two dispatchers with slow deliveries (25 s each, batches outliving the 60 s lease): none takes an event the other works on", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.now())
      yield* claimAll(() => false)
      const at = (yield* Clock.currentTimeMillis) - 1_000
      for (let i = 0; i < 20; i++) yield* submitRace(i, at)
      const outbox = () => client === undefined ? SqlOutbox.layer : SqlOutbox.layer.pipe(Layer.provide(client()))
      const result = yield* runSlowDispatchers([outbox(), outbox()], 20, realPause)
      expect(result.overlaps).toEqual([])
      expect([result.calls.size, [...result.calls.values()].every((n) => n === 1)]).toEqual([20, true])
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ readonly delivered: boolean; readonly attempts: number }>`
        SELECT delivered_at IS NOT NULL AS delivered, attempts FROM outbox WHERE id::text IN ${sql.in([...result.calls.keys()])}`
      expect(rows.length).toBe(20)
      expect(rows.every((row) => row.delivered && row.attempts === 1)).toBe(true)
    }).pipe(Effect.provide(TestClock.layer())))

  it.effect("a running dispatcher is woken by a section submit (no polling) and applies the mapped values", () =>
    Effect.gen(function*() {
      yield* claimAll(() => false)
      const registry = yield* registryWith([])
      // A poll interval of a minute: only the signal can make the dispatcher look before the deadline below.
      yield* Effect.scoped(Effect.gen(function*() {
        yield* Dispatcher.start({ pollIntervalMs: 60_000 })
        yield* Effect.sleep("200 millis")
        const flight = fresh("KL")
        yield* writeSection({
          engagement_id: portalIds.engagement, section_id: portalIds.travel, schema_id: portalIds.advance,
          form_section_id: portalIds.travelSection, subject_id: portalIds.artist, event_id: portalIds.festival,
          values: values({ arrival_date: "2027-08-19", flight_number: flight }), submitted_at: (yield* Clock.currentTimeMillis) - 1_000
        })
        const targets = yield* ValueTargets
        const applied = yield* Effect.gen(function*() {
          for (;;) {
            const read = yield* targets.read(portalIds.engagement)
            if (Option.isSome(read) && read.value.advance["flight"] === flight) return read.value
            yield* Effect.sleep("20 millis")
          }
        }).pipe(Effect.timeout("3 seconds"))
        expect([applied.advance["arrival_date"], applied.advance["flight"]]).toEqual(["2027-08-19", flight])
      }).pipe(Effect.provide(registry)))
    }))

  it.effect("a dispatcher interrupted between its handlers and markDelivered: redelivered after the lease, applied once", () =>
    Effect.gen(function*() {
      yield* claimAll(() => false)
      const email = `${fresh("Ann")}@Example.NL`
      const submission = yield* submitVolunteer(values({ email, shirt: "M", skills: ["stage"] }))
      const reached = yield* Deferred.make<string>()
      const stall: EventHandler = {
        name: "stall", type: "submission.submitted",
        handle: (event) => Effect.andThen(Deferred.succeed(reached, event.id), Effect.never)
      }
      // Leases of one second (a delivery timeout of 700 ms plus 300 ms); new layer values, so nothing
      // memoised by the shared test layer is reused.
      const short = { deliveryTimeoutMs: 700, leaseMarginMs: 300 }
      const first = yield* Effect.forkChild(dispatchBatch(short).pipe(
        Effect.provide(Layer.mergeAll(SqlOutbox.layer, yield* registryWith([stall])))
      ))
      const eventId = yield* Deferred.await(reached)
      yield* Fiber.interrupt(first)
      const { calls, handler } = counting("submission.submitted")
      const second = dispatchBatch(short).pipe(
        Effect.provide(Layer.mergeAll(SqlOutbox.layer, yield* registryWith([handler])))
      )
      expect((yield* second).claimed).toBe(0)
      yield* Effect.sleep("1100 millis")
      const result = yield* second
      expect([result.claimed, result.delivered, calls.get(eventId)]).toEqual([1, 1, 1])

      // The built-in handlers ran twice; their result is that of one delivery.
      const enrichment = yield* Enrichment
      const tags = ["2027", "crew", "shirt-m", "stage", "volunteer"]
      expect(yield* enrichment.submissionTags(submission.id)).toEqual(tags)
      const contacts = (yield* enrichment.contacts(portalIds.organisation)).filter((c) => c.key === email.toLowerCase())
      expect(contacts.map((c) => c.tags)).toEqual([tags])
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ readonly delivered: boolean; readonly attempts: number; readonly last_error: string | null }>`
        SELECT delivered_at IS NOT NULL AS delivered, attempts, last_error FROM outbox WHERE id = ${eventId}::uuid`
      // Two attempts counted: the interrupted one (recorded as such by the claim after its lease) and the delivery.
      expect(rows).toEqual([{ delivered: true, attempts: 2, last_error: interruptedAttemptError }])
    }))
}
