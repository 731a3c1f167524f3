/** Volunteer shifts through HTTP (CONTRACT §15): capacity and remaining, the time_slots rules, places at submit. */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { fileURLToPath } from "node:url"
import { adminCall, list } from "./adminSupport.js"
import { backends, reportSkippedPostgres } from "./backends.js"
import { call, dataOf, liveOptions, type RawResponse, testServer } from "./harness.js"

export const shiftsFixturePath = fileURLToPath(new URL("./shifts.fixture.json", import.meta.url))
export const shiftsForm = "/public/forms/shifts-form-token-0001"
const organiserKey = "fok_shifts_test_key_0123456789abcdefghijklmnop"
const env = { FIXTURE_FILE: shiftsFixturePath, SUBMIT_RATE_LIMIT_PER_HOUR: "1000", WRITE_RATE_LIMIT_PER_HOUR: "1000" }

let counter = 0
const nextKey = () => `shift-${String(++counter).padStart(6, "0")}-0123456789abcdef`

/** A new draft of the shifts form with a valid email; its id. */
const draft = (form = shiftsForm) =>
  Effect.map(
    call(`${form}/submissions`, { method: "POST", body: { idempotency_key: nextKey(), values: { email: "v@example.org" } } }),
    (r) => String(dataOf(r)["id"])
  )
const submit = (id: string, values: Record<string, unknown>, form = shiftsForm) =>
  call(`${form}/submissions/${id}/submit`, { method: "POST", body: { values } })
const submitNew = (values: Record<string, unknown>) => Effect.flatMap(draft(), (id) => submit(id, values))
const rulesOf = (response: RawResponse) => {
  const fields = (JSON.parse(response.text) as { error: { fields?: Record<string, ReadonlyArray<{ rule: string }>> } }).error.fields ?? {}
  return Object.fromEntries(Object.entries(fields).map(([slug, errors]) => [slug, errors.map((e) => e.rule)]))
}
const slotsOf = Effect.map(call(`${shiftsForm}/time-slots`), (r) => dataOf(r) as unknown as ReadonlyArray<Record<string, unknown>>)
const remainingOf = (id: string) => Effect.map(slotsOf, (slots) => slots.find((s) => s["id"] === id)?.["remaining"])
const adminSlots = (event: string) => Effect.map(adminCall(organiserKey, "GET", `/admin/events/${event}/time-slots`), list)

for (const backend of backends) {
  layer(testServer(backend, env), liveOptions)(`volunteer shifts (${backend})`, (it) => {
    describe("the time-slots lists", () => {
      it.effect("the public list adds capacity and remaining to each slot, festival-aware", () =>
        Effect.gen(function*() {
          const slots = yield* slotsOf
          assert.deepStrictEqual(slots.map((s) => s["id"]), ["sl-gate", "sl-stage", "sl-bar", "sl-night", "sl-early", "sl-race", "sl-free"])
          assert.deepStrictEqual(slots[0], {
            id: "sl-gate", name: "Gate", date: "2027-08-20", start_time: "08:00", end_time: "12:00",
            starts_at: "2027-08-20T08:00:00.000Z", ends_at: "2027-08-20T12:00:00.000Z", duration_hours: 4,
            signup_opens_at: null, signup_closes_at: null,
            event_id: "ev-sh", event_name: "Shifts festival", capacity: 7, remaining: 7, waitlist: false, waitlisted: 0
          })
          assert.deepStrictEqual(slots.map((s) => [s["capacity"], s["remaining"]]), [[7, 7], [null, null], [2, 2], [1, 1], [null, null], [7, 7], [3, 3]])
        }))
    })

    describe("the time_slots rules", () => {
      it.effect("a save answers invalid, in, max and overlap (midnight and child events included); touching is fine", () =>
        Effect.gen(function*() {
          const id = yield* draft()
          const save = (shifts: unknown) => call(`${shiftsForm}/submissions/${id}`, { method: "PUT", body: { values: { shifts } } })
          const cases: ReadonlyArray<readonly [unknown, Record<string, ReadonlyArray<string>>]> = [
            [["sl-gate", "sl-gate"], { shifts: ["invalid"] }],
            [[1], { shifts: ["invalid"] }],
            [["sl-elsewhere"], { shifts: ["in"] }],
            [["sl-gate", "sl-bar", "sl-race", "sl-free"], { shifts: ["max"] }],
            [["sl-gate", "sl-stage"], { shifts: ["overlap"] }],
            [["sl-night", "sl-early"], { shifts: ["overlap"] }],
            [["nope", "sl-gate", "sl-stage", "sl-free"], { shifts: ["in", "max", "overlap"] }]
          ]
          for (const [shifts, expected] of cases) {
            const answer = yield* save(shifts)
            assert.strictEqual(answer.status, 422, JSON.stringify(shifts))
            assert.deepStrictEqual(rulesOf(answer), expected, JSON.stringify(shifts))
          }
          assert.strictEqual((yield* save(["sl-gate", "sl-bar"])).status, 200)
          assert.strictEqual((yield* save("sl-night")).status, 200)
        }))

      it.effect("submit: required, full beside other fields' errors, and nothing written on a refusal", () =>
        Effect.gen(function*() {
          const empty = yield* submit(yield* draft(), { shifts: [] })
          assert.deepStrictEqual([empty.status, rulesOf(empty)], [422, { shifts: ["required"] }])
          const first = yield* submitNew({ shifts: ["sl-night"] })
          assert.strictEqual(first.status, 200)
          assert.strictEqual(yield* remainingOf("sl-night"), 0)
          const second = yield* submitNew({ shifts: ["sl-night"] })
          assert.deepStrictEqual([second.status, rulesOf(second)], [422, { shifts: ["full"] }])
          const both = yield* submitNew({ email: "not-an-email", shifts: ["sl-night"] })
          assert.deepStrictEqual([both.status, rulesOf(both)], [422, { email: ["email"], shifts: ["full"] }])
          // The message names the slot, whether the places were taken (the atomic submit) or read (beside other errors).
          const named = "The time slot Night 2027-08-20 22:00\u201302:00 has no place left."
          for (const answer of [second, both]) assert.strictEqual(JSON.parse(answer.text).error.fields.shifts[0].message, named)
          // A refused submit leaves its draft a draft: the same draft submits once a place is free elsewhere.
          const id = yield* draft()
          assert.strictEqual((yield* submit(id, { shifts: ["sl-night"] })).status, 422)
          assert.strictEqual((yield* submit(id, { shifts: ["sl-early"] })).status, 200)
        }))

      it.effect("a form lists only its own festival: another festival's form cannot take these slots", () =>
        Effect.gen(function*() {
          const other = "/public/forms/shifts-other-token-0001"
          const answer = yield* submit(yield* draft(other), { slots: ["sl-gate"] }, other)
          assert.deepStrictEqual([answer.status, rulesOf(answer)], [422, { slots: ["in"] }])
          assert.strictEqual((yield* submit(yield* draft(other), { slots: "sl-elsewhere" }, other)).status, 200)
        }))
    })

    describe("places at submit", () => {
      it.effect("60 concurrent submits on a slot of capacity 7: exactly 7 answer 200, the others 422 full", () =>
        Effect.gen(function*() {
          const ids = yield* Effect.all(Array.from({ length: 60 }, () => draft()), { concurrency: 8 })
          const answers = yield* Effect.all(ids.map((id) => submit(id, { shifts: ["sl-race"] })), { concurrency: "unbounded" })
          assert.strictEqual(answers.filter((r) => r.status === 200).length, 7)
          const refused = answers.filter((r) => r.status !== 200)
          assert.strictEqual(refused.length, 53)
          assert.isTrue(refused.every((r) => r.status === 422 && JSON.stringify(rulesOf(r)) === `{"shifts":["full"]}`))
          assert.strictEqual(yield* remainingOf("sl-race"), 0)
          const sql = yield* SqlClient.SqlClient
          const [row] = yield* sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM slot_places WHERE slot_id = 'sl-race'`
          assert.strictEqual(row?.n, 7)
        }))

      it.effect("submits choosing several slots in opposite orders: no deadlock, never more holders than places", () =>
        Effect.gen(function*() {
          const ids = yield* Effect.all(Array.from({ length: 20 }, () => draft()), { concurrency: 8 })
          const orders = [["sl-bar", "sl-early"], ["sl-early", "sl-bar"]]
          const answers = yield* Effect.all(
            ids.map((id, i) => submit(id, { shifts: orders[i % 2] })),
            { concurrency: "unbounded" }
          )
          assert.deepStrictEqual([...new Set(answers.map((r) => r.status))].sort(), [200, 422])
          assert.strictEqual(answers.filter((r) => r.status === 200).length, 2)
          assert.strictEqual(yield* remainingOf("sl-bar"), 0)
        }))

      it.effect("organiser: remaining in the admin list; a lower capacity keeps the holders; a held slot is IN_USE; erasure frees", () =>
        Effect.gen(function*() {
          for (let i = 0; i < 2; i++) assert.strictEqual((yield* submitNew({ shifts: ["sl-free"] })).status, 200)
          const admin = (yield* adminSlots("ev-sh")).find((s) => s["id"] === "sl-free")
          assert.deepStrictEqual([admin?.["capacity"], admin?.["remaining"]], [3, 1])
          const lowered = yield* adminCall(organiserKey, "PATCH", "/admin/time-slots/sl-free", { capacity: 1 })
          assert.strictEqual(lowered.status, 200)
          assert.deepStrictEqual([dataOf(lowered)["capacity"], dataOf(lowered)["remaining"]], [1, 0])
          assert.strictEqual(yield* remainingOf("sl-free"), 0)
          const full = yield* submitNew({ shifts: ["sl-free"] })
          assert.deepStrictEqual(rulesOf(full), { shifts: ["full"] })
          const held = yield* adminCall(organiserKey, "DELETE", "/admin/time-slots/sl-free")
          assert.strictEqual(held.status, 409)
          assert.strictEqual(JSON.parse(held.text).error.code, "IN_USE")
          // Deleting the submissions (erasure, §12) deletes their places: the slot is free, then deletable.
          const sql = yield* SqlClient.SqlClient
          yield* sql`DELETE FROM submissions WHERE id IN (SELECT submission_id FROM slot_places WHERE slot_id = 'sl-free')`
          assert.strictEqual(yield* remainingOf("sl-free"), 1)
          assert.strictEqual((yield* adminCall(organiserKey, "DELETE", "/admin/time-slots/sl-free")).status, 204)
        }))
    })
  })
}

reportSkippedPostgres("volunteer shifts")
