/** Waitlists through HTTP: waitlisted places at submit, counts in the lists, promotion on erasure and on a capacity raised. */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { fileURLToPath } from "node:url"
import { adminCall, data, json } from "./adminSupport.js"
import { backends, reportSkippedPostgres } from "./backends.js"
import { call, dataOf, liveOptions, testServer } from "./harness.js"

const shiftsFixturePath = fileURLToPath(new URL("./shifts.fixture.json", import.meta.url))
const shiftsForm = "/public/forms/shifts-form-token-0001"
const organiserKey = "fok_shifts_test_key_0123456789abcdefghijklmnop"
const env = { FIXTURE_FILE: shiftsFixturePath, SUBMIT_RATE_LIMIT_PER_HOUR: "1000", WRITE_RATE_LIMIT_PER_HOUR: "1000" }

let counter = 0
const submitNew = (shifts: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const created = yield* call(`${shiftsForm}/submissions`, {
      method: "POST",
      body: { idempotency_key: `waitlist-${String(++counter).padStart(6, "0")}-0123456789abcdef`, values: { email: "v@example.org" } }
    })
    const id = String(dataOf(created)["id"])
    return { id, answer: yield* call(`${shiftsForm}/submissions/${id}/submit`, { method: "POST", body: { values: { shifts } } }) }
  })
const slotOf = (id: string) =>
  Effect.map(call(`${shiftsForm}/time-slots`), (r) => (dataOf(r) as unknown as ReadonlyArray<Record<string, unknown>>).find((s) => s["id"] === id))
const statuses = (slot: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ readonly submission_id: string; readonly status: string }>`
      SELECT submission_id::text AS submission_id, status FROM slot_places WHERE slot_id = ${slot} ORDER BY joined`
    return rows.map((r) => [r.submission_id, r.status] as const)
  })
const promotedEvents = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ readonly submission_id: string }>`
    SELECT payload->>'submission_id' AS submission_id FROM outbox WHERE type = 'place.promoted' ORDER BY seq`
  return rows.map((r) => r.submission_id)
})

const submittedPlaces = (id: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ readonly places: unknown }>`
      SELECT payload->'places' AS places FROM outbox WHERE type = 'submission.submitted' AND payload->>'submission_id' = ${id}`
    assert.strictEqual(rows.length, 1)
    const places = rows[0]?.places
    return typeof places === "string" ? JSON.parse(places) as unknown : places
  })

for (const backend of backends) {
  layer(testServer(backend, env), liveOptions)(`waitlists (${backend})`, (it) => {
    it.effect("a waitlist needs a capacity: 422 invalid on waitlist, on create and on a patch; a draft has no places", () =>
      Effect.gen(function*() {
        const draft = yield* call(`${shiftsForm}/submissions`, {
          method: "POST",
          body: { idempotency_key: "waitlist-draft-0123456789abcdef", values: { email: "d@example.org" } }
        })
        assert.deepStrictEqual(dataOf(draft)["places"], [])
        const organisers = yield* adminCall(organiserKey, "GET", `/admin/submissions/${String(dataOf(draft)["id"])}`)
        assert.deepStrictEqual(data(organisers)["places"], [])
        const created = yield* adminCall(organiserKey, "POST", "/admin/events/ev-sh/time-slots", {
          name: "No cap", date: "2027-08-25", start_time: "08:00", end_time: "10:00", waitlist: true
        })
        assert.strictEqual(created.status, 422)
        assert.deepStrictEqual(Object.keys((json(created)["error"] as { fields: object }).fields), ["waitlist"])
        assert.strictEqual((yield* adminCall(organiserKey, "PATCH", "/admin/time-slots/sl-stage", { waitlist: true })).status, 422)
        assert.strictEqual((yield* adminCall(organiserKey, "PATCH", "/admin/time-slots/sl-gate", { waitlist: "yes" })).status, 422)
      }))

    it.effect("a full waitlist slot gives waitlisted places; erasure and a capacity raised promote the earliest, with events", () =>
      Effect.gen(function*() {
        const patched = yield* adminCall(organiserKey, "PATCH", "/admin/time-slots/sl-bar", { capacity: 1, waitlist: true })
        assert.deepStrictEqual([data(patched)["waitlist"], data(patched)["waitlisted"]], [true, 0])
        const taken = []
        for (let i = 0; i < 4; i++) {
          const { answer, id } = yield* submitNew(["sl-bar"])
          assert.strictEqual(answer.status, 200, answer.text)
          // The submit answer shows the place: confirmed, or waitlisted with its rank.
          assert.deepStrictEqual(dataOf(answer)["places"], [
            i === 0 ? { slot_id: "sl-bar", status: "confirmed", position: null } : { slot_id: "sl-bar", status: "waitlisted", position: i }
          ])
          taken.push(id)
        }
        const [first, second, third, fourth] = taken as [string, string, string, string]
        assert.deepStrictEqual(yield* statuses("sl-bar"), [
          [first, "confirmed"], [second, "waitlisted"], [third, "waitlisted"], [fourth, "waitlisted"]
        ])
        const listed = yield* slotOf("sl-bar")
        assert.deepStrictEqual([listed?.["remaining"], listed?.["waitlist"], listed?.["waitlisted"]], [0, true, 3])

        // The confirmed one is erased: the first waiting takes its place in the same transaction.
        assert.strictEqual((yield* adminCall(organiserKey, "DELETE", `/admin/submissions/${first}`)).status, 204)
        assert.deepStrictEqual(yield* statuses("sl-bar"), [[second, "confirmed"], [third, "waitlisted"], [fourth, "waitlisted"]])
        // Erasing a waiting one promotes nobody.
        assert.strictEqual((yield* adminCall(organiserKey, "DELETE", `/admin/submissions/${third}`)).status, 204)
        assert.deepStrictEqual(yield* statuses("sl-bar"), [[second, "confirmed"], [fourth, "waitlisted"]])
        // A replay of the create shows the submission as it is now: its rank moved up from 3 to 1.
        const replay = yield* call(`${shiftsForm}/submissions`, {
          method: "POST",
          body: { idempotency_key: `waitlist-${String(counter).padStart(6, "0")}-0123456789abcdef` }
        })
        assert.deepStrictEqual(dataOf(replay)["places"], [{ slot_id: "sl-bar", status: "waitlisted", position: 1 }])
        // A capacity raised promotes as many as it makes room for.
        const raised = yield* adminCall(organiserKey, "PATCH", "/admin/time-slots/sl-bar", { capacity: 3 })
        assert.deepStrictEqual([data(raised)["remaining"], data(raised)["waitlisted"]], [1, 0])
        assert.deepStrictEqual(yield* statuses("sl-bar"), [[second, "confirmed"], [fourth, "confirmed"]])
        assert.deepStrictEqual(yield* promotedEvents, [second, fourth])

        // The organiser's submission shows its places now; its submitted event the places as the submit took them.
        const organisers = yield* adminCall(organiserKey, "GET", `/admin/submissions/${fourth}`)
        assert.deepStrictEqual(data(organisers)["places"], [{ slot_id: "sl-bar", status: "confirmed", position: null }])
        assert.deepStrictEqual(yield* submittedPlaces(fourth), [{ slot_id: "sl-bar", status: "waitlisted", position: 3 }])
        assert.deepStrictEqual(yield* submittedPlaces(second), [{ slot_id: "sl-bar", status: "waitlisted", position: 1 }])

        // Turning the waitlist off: nobody new joins; a full slot is full again.
        yield* adminCall(organiserKey, "PATCH", "/admin/time-slots/sl-bar", { capacity: 2, waitlist: false })
        const refused = yield* submitNew(["sl-bar"])
        assert.strictEqual(refused.answer.status, 422)
        assert.include(refused.answer.text, "\"rule\":\"full\"")
      }))
  })
}

reportSkippedPostgres("waitlists")
