/**
 * Shift reminders and promotions on SQL, shared by the PGlite and PostgreSQL test files, with a test clock:
 * a reminder is made when its moment comes, late after a pause while its slot has not started, never once the slot
 * has started, never for a place given up or an erased submission, never twice; a waiting place is reminded only
 * once promoted, and its promotion's message is recorded in the promoting transaction.
 */
import { expect } from "@effect/vitest"
import type { Vitest } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { SqlClient } from "effect/sql"
import {
  makeRemindersDue,
  messagesConfigLayer,
  type Reminders,
  remindersConfigLayer,
  type ShiftReminderPlan,
  SubmissionRecords,
  Submissions
} from "@forms/domain"
import { ids } from "../fixtures.js"

export type RemindersIt = Vitest.MethodsNonLive<Submissions | Reminders | SubmissionRecords | SqlClient.SqlClient>

const hour = 3_600_000
let n = 0
const unique = () => `${Date.now().toString(36)}-${++n}`

/** A slot of the fixture's festival (UTC) starting at `startsAt`, with a capacity when given (and then a waitlist). */
const slotAt = (startsAt: number, capacity: number | null = null) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const id = `ts-reminder-${unique()}`
    const start = new Date(startsAt)
    const date = start.toISOString().slice(0, 10)
    const time = start.toISOString().slice(11, 16)
    yield* sql`INSERT INTO time_slots (id, event_id, name, date, start_time, end_time, starts_at, ends_at, capacity, waitlist)
      VALUES (${id}, ${ids.festival}, ${"Bar shift"}, ${date}::date, ${time}::time, ${time}::time + interval '2 hours',
        ${start}::timestamptz, ${new Date(startsAt + 2 * hour)}::timestamptz, ${capacity}, ${capacity !== null})`
    return id
  })

/** A submitted submission of the volunteer form holding a place in `slotId`, with the reminders planned at submit. */
const submitted = (slotId: string, to: string, hours: ReadonlyArray<number>, at: number) =>
  Effect.gen(function*() {
    const submissions = yield* Submissions
    const { submission } = yield* submissions.createOrGet({
      schema_id: ids.volunteer, idempotency_key: `reminders-${unique()}`.padEnd(20, "0"), event_id: ids.festival,
      subject_id: null, values: {}, language: "en"
    })
    const reminders: ReadonlyArray<ShiftReminderPlan> = hours.map((hours_before) => ({ slot_id: slotId, hours_before, to }))
    yield* submissions.submit({
      schema_id: ids.volunteer,
      id: submission.id,
      expected_version: submission.version,
      values: { email: to },
      claims: [],
      submitted_at: at,
      events: [],
      places: { slot_ids: [slotId], decide: () => undefined },
      reminders
    })
    return submission.id
  })

const remindersOf = (submissionId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return yield* sql<{ readonly kind: string; readonly to_address: string; readonly status: string; readonly subject: string; readonly body: string }>`
      SELECT kind, to_address, status, subject, body FROM messages WHERE submission_id = ${submissionId}::uuid
        AND kind IN ('reminder', 'promotion') ORDER BY seq`
  })

const scheduleOf = (submissionId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return yield* sql<{ readonly hours_before: number; readonly state: string }>`
      SELECT hours_before, state FROM shift_reminders WHERE submission_id = ${submissionId}::uuid ORDER BY hours_before DESC`
  })

/** One sweep at `at` on the test clock. */
const sweepAt = (at: number) =>
  Effect.gen(function*() {
    yield* TestClock.setTime(at)
    return yield* makeRemindersDue()
  })

const withClock = <A, E, R>(effect: Effect.Effect<A, E, R>) => effect.pipe(Effect.provide(TestClock.layer()))

export const remindersScenarios = (it: RemindersIt): void => {
  it.effect("a reminder is made when its moment comes, once, held without a mail server and pending with one", () =>
    withClock(Effect.gen(function*() {
      const start = Date.parse("2031-03-10T10:00:00Z") + n * 7 * 24 * hour
      const slot = yield* slotAt(start)
      const id = yield* submitted(slot, "vol@example.org", [24, 2], start - 30 * 24 * hour)
      expect(yield* scheduleOf(id)).toEqual([{ hours_before: 24, state: "scheduled" }, { hours_before: 2, state: "scheduled" }])

      yield* sweepAt(start - 24 * hour - 1)
      expect(yield* remindersOf(id)).toEqual([])
      yield* sweepAt(start - 24 * hour)
      const first = yield* remindersOf(id)
      expect(first).toHaveLength(1)
      expect(first[0]).toMatchObject({ kind: "reminder", to_address: "vol@example.org", status: "held" })
      expect(first[0]?.body).toContain(`Bar shift: ${new Date(start).toISOString().slice(0, 10)} 10:00–12:00 (UTC)`)
      expect(first[0]?.subject).toBe("Reminder: Bar shift (Test volunteers)")
      // Never twice, however often it is swept.
      yield* sweepAt(start - 23 * hour)
      yield* sweepAt(start - 22 * hour)
      expect(yield* remindersOf(id)).toHaveLength(1)

      // With a mail server, the next one is pending (the sender sends it).
      yield* sweepAt(start - 2 * hour).pipe(Effect.provide(messagesConfigLayer({ sending: true })))
      expect((yield* remindersOf(id)).map((m) => m.status)).toEqual(["held", "pending"])
      expect(yield* scheduleOf(id)).toEqual([{ hours_before: 24, state: "made" }, { hours_before: 2, state: "made" }])
    })))

  it.effect("late after a pause: a moment passed while no sweep ran is made while the slot has not started", () =>
    withClock(Effect.gen(function*() {
      const start = Date.parse("2031-06-10T10:00:00Z") + n * 7 * 24 * hour
      const slot = yield* slotAt(start)
      const id = yield* submitted(slot, "late@example.org", [48, 24], start - 30 * 24 * hour)
      // The service was down from before the first moment until an hour before the start.
      yield* sweepAt(start - hour)
      expect((yield* remindersOf(id)).map((m) => m.kind)).toEqual(["reminder", "reminder"])
      yield* sweepAt(start - 30 * 60_000)
      expect(yield* remindersOf(id)).toHaveLength(2)
    })))

  it.effect("skipped once the slot has started: never sent, even by a later sweep", () =>
    withClock(Effect.gen(function*() {
      const start = Date.parse("2031-09-10T10:00:00Z") + n * 7 * 24 * hour
      const slot = yield* slotAt(start)
      const id = yield* submitted(slot, "started@example.org", [24], start - 30 * 24 * hour)
      yield* sweepAt(start)
      expect(yield* remindersOf(id)).toEqual([])
      expect(yield* scheduleOf(id)).toEqual([{ hours_before: 24, state: "skipped" }])
      yield* sweepAt(start + hour)
      expect(yield* remindersOf(id)).toEqual([])
    })))

  it.effect("skipped for a place given up and for an erased submission", () =>
    withClock(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const start = Date.parse("2032-01-10T10:00:00Z") + n * 7 * 24 * hour
      const slot = yield* slotAt(start)
      const cancelled = yield* submitted(slot, "cancelled@example.org", [24], start - 30 * 24 * hour)
      const erased = yield* submitted(slot, "erased@example.org", [24], start - 30 * 24 * hour)
      const kept = yield* submitted(slot, "kept@example.org", [24], start - 30 * 24 * hour)
      // The place given up (as a cancellation or a coordinator's removal deletes it), and an erasure.
      yield* sql`DELETE FROM slot_places WHERE submission_id = ${cancelled}::uuid`
      const records = yield* SubmissionRecords
      yield* records.erase({ organisation_id: ids.organisation, api_key_id: null }, erased, start - 25 * hour)
      yield* sweepAt(start - 24 * hour)
      expect(yield* remindersOf(cancelled)).toEqual([])
      expect(yield* remindersOf(erased)).toEqual([])
      expect((yield* remindersOf(kept)).map((m) => m.to_address)).toEqual(["kept@example.org"])
      const [left] = yield* sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM shift_reminders WHERE submission_id = ${erased}::uuid`
      expect(left?.n).toBe(0)
    })))

  it.effect("sweeps racing on many reminders make each one message, no more, no less", () =>
    withClock(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const start = Date.parse("2032-03-10T10:00:00Z")
      const slot = yield* slotAt(start)
      const submitted30 = yield* Effect.forEach(Array.from({ length: 30 }, (_, i) => i), (i) =>
        submitted(slot, `racer${i}@example.org`, [24], start - 30 * 24 * hour))
      yield* TestClock.setTime(start - 24 * hour)
      // Four sweeps at once, each taking at most 10 (on PostgreSQL they run in parallel, on PGlite one after another).
      const sweeps = yield* Effect.all(
        Array.from({ length: 4 }, () => makeRemindersDue().pipe(Effect.provide(remindersConfigLayer({ batch: 10 })))),
        { concurrency: 4 }
      )
      const rest = yield* makeRemindersDue()
      expect(sweeps.reduce((a, b) => a + b, 0) + rest).toBe(30)
      const counts = yield* sql<{ readonly submission_id: string; readonly n: number }>`
        SELECT submission_id::text AS submission_id, count(*)::int AS n FROM messages
        WHERE kind = 'reminder' AND submission_id = ANY(${submitted30}::uuid[]) GROUP BY 1`
      expect(counts).toHaveLength(30)
      expect(counts.every((c) => c.n === 1)).toBe(true)
      expect(yield* makeRemindersDue()).toBe(0)
    })))

  it.effect("a waiting place is reminded once promoted; its promotion's message is recorded with the promotion", () =>
    withClock(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const start = Date.parse("2032-05-10T10:00:00Z") + n * 7 * 24 * hour
      const slot = yield* slotAt(start, 1)
      // The volunteer form asks for a confirmation to its `email` field.
      yield* sql`UPDATE form_schemas SET messages = ${JSON.stringify({ confirmation: { to_field: "email", subject: "Hi", body: "Thanks" } })}::jsonb
        WHERE id = ${ids.volunteer}`
      const holder = yield* submitted(slot, "holder@example.org", [24], start - 30 * 24 * hour)
      const waiting = yield* submitted(slot, "waiting@example.org", [24], start - 30 * 24 * hour)
      const places = yield* sql<{ readonly submission_id: string; readonly status: string }>`
        SELECT submission_id::text AS submission_id, status FROM slot_places WHERE slot_id = ${slot} ORDER BY joined`
      expect(places.map((p) => p.status)).toEqual(["confirmed", "waitlisted"])
      yield* sweepAt(start - 24 * hour)
      expect(yield* remindersOf(waiting)).toEqual([])
      expect((yield* remindersOf(holder)).map((m) => m.kind)).toEqual(["reminder"])

      // The holder is erased: the waiting place is confirmed in the erasure's transaction, with its message.
      const records = yield* SubmissionRecords
      yield* TestClock.setTime(start - 20 * hour)
      yield* records.erase({ organisation_id: ids.organisation, api_key_id: null }, holder, start - 20 * hour)
      const promoted = yield* remindersOf(waiting)
      expect(promoted).toEqual([{
        kind: "promotion",
        to_address: "waiting@example.org",
        status: "held",
        subject: "Your place is confirmed: Bar shift (Test volunteers)",
        body: expect.stringContaining("Bar shift: ") as unknown as string
      }])
      // Its reminder's moment has passed, the slot has not started: it is made late.
      yield* sweepAt(start - 19 * hour)
      expect((yield* remindersOf(waiting)).map((m) => m.kind)).toEqual(["promotion", "reminder"])
      yield* sql`UPDATE form_schemas SET messages = NULL WHERE id = ${ids.volunteer}`
    })))
}

