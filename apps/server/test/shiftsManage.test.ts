/**
 * Managing one's shifts through HTTP (CONTRACT §22): the manage link of the submit answer, the manage answer, giving a
 * place up (the waitlist promoted in the same transaction, `place.cancelled` recorded), the errors, the write limit,
 * and a new link from the organiser.
 */
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
/** A new submission choosing `shifts`; its id and the token of its manage link. */
const submitNew = (shifts: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const created = yield* call(`${shiftsForm}/submissions`, {
      method: "POST",
      body: { idempotency_key: `manage-${String(++counter).padStart(6, "0")}-0123456789abcdef`, values: { email: "v@example.org" } }
    })
    const id = String(dataOf(created)["id"])
    const answer = yield* call(`${shiftsForm}/submissions/${id}/submit`, { method: "POST", body: { values: { shifts } } })
    assert.strictEqual(answer.status, 200, answer.text)
    const url = String(dataOf(answer)["manage_url"])
    const match = /^http:\/\/[^/]+\/m\/([A-Za-z0-9_-]{43})$/.exec(url)
    assert.isNotNull(match, url)
    return { id, token: match?.[1] ?? "" }
  })
const manage = (token: string) => call(`/public/manage/${token}`)
const cancel = (token: string, slot: string) => call(`/public/manage/${token}/places/${slot}`, { method: "DELETE" })
const placesOf = (token: string) =>
  Effect.map(manage(token), (r) =>
    (dataOf(r)["places"] as ReadonlyArray<{ slot: { id: string }; status: string; position: number | null }>).map((p) =>
      [p.slot.id, p.status, p.position] as const
    ))
const errorCode = (text: string) => (JSON.parse(text) as { error: { code: string } }).error.code
const placeEvents = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ readonly type: string; readonly submission_id: string; readonly slot_id: string }>`
    SELECT type, payload->>'submission_id' AS submission_id, payload->>'slot_id' AS slot_id FROM outbox
    WHERE type IN ('place.cancelled', 'place.promoted') ORDER BY seq`
  return rows.map((r) => [r.type, r.submission_id, r.slot_id] as const)
})

for (const backend of backends) {
  layer(testServer(backend, env), liveOptions)(`managing one's shifts (${backend})`, (it) => {
    it.effect("a place given up frees it for the first waiting one, in order; the slot leaves the values", () =>
      Effect.gen(function*() {
        const patched = yield* adminCall(organiserKey, "PATCH", "/admin/time-slots/sl-bar", { capacity: 1, waitlist: true })
        assert.strictEqual(patched.status, 200, patched.text)
        const a = yield* submitNew(["sl-bar", "sl-gate"])
        const b = yield* submitNew(["sl-bar"])
        const c = yield* submitNew(["sl-bar"])

        const view = yield* manage(a.token)
        assert.strictEqual(view.status, 200, view.text)
        assert.deepStrictEqual(dataOf(view)["form"], { name: "Volunteer shifts" })
        // The write limit counts the manage routes.
        assert.match(view.headers.get("ratelimit-policy") ?? "", /^"write";q=1000;w=3600$/)
        const slot = (dataOf(view)["places"] as ReadonlyArray<{ slot: Record<string, unknown> }>)[1]?.slot
        assert.deepStrictEqual([slot?.["id"], slot?.["event_name"], slot?.["starts_at"]], ["sl-bar", "Shifts Friday", "2027-08-20T12:00:00.000Z"])
        assert.deepStrictEqual(yield* placesOf(a.token), [["sl-gate", "confirmed", null], ["sl-bar", "confirmed", null]])
        assert.deepStrictEqual(yield* placesOf(c.token), [["sl-bar", "waitlisted", 2]])

        const gone = yield* cancel(a.token, "sl-bar")
        assert.strictEqual(gone.status, 204, gone.text)
        assert.strictEqual(gone.text, "")
        assert.match(gone.headers.get("ratelimit") ?? "", /^"write";r=\d+;t=\d+$/)
        assert.deepStrictEqual(yield* placesOf(a.token), [["sl-gate", "confirmed", null]])
        assert.deepStrictEqual(yield* placesOf(b.token), [["sl-bar", "confirmed", null]])
        assert.deepStrictEqual(yield* placesOf(c.token), [["sl-bar", "waitlisted", 1]])
        const stored = yield* adminCall(organiserKey, "GET", `/admin/submissions/${a.id}`)
        assert.deepStrictEqual((data(stored)["values"] as Record<string, unknown>)["shifts"], ["sl-gate"])
        assert.notStrictEqual(data(stored)["updated_at"], data(stored)["submitted_at"])
        assert.deepStrictEqual(yield* placeEvents, [["place.cancelled", a.id, "sl-bar"], ["place.promoted", b.id, "sl-bar"]])

        // A waiting place may be given up too; nobody is promoted by it.
        assert.strictEqual((yield* cancel(c.token, "sl-bar")).status, 204)
        assert.deepStrictEqual(yield* placesOf(c.token), [])
        assert.strictEqual((yield* placeEvents).length, 3)
      }))

    it.effect("unknown token 404 MANAGE_NOT_FOUND, no place 404 PLACE_NOT_FOUND, a started slot 409 CANCEL_CLOSED", () =>
      Effect.gen(function*() {
        const unknown = yield* manage("x".repeat(43))
        assert.deepStrictEqual([unknown.status, errorCode(unknown.text)], [404, "MANAGE_NOT_FOUND"])
        // No limit before the token: an unknown one is not counted and carries no RateLimit headers.
        assert.isNull(unknown.headers.get("ratelimit"))
        const unknownCancel = yield* cancel("y".repeat(43), "sl-gate")
        assert.deepStrictEqual([unknownCancel.status, errorCode(unknownCancel.text)], [404, "MANAGE_NOT_FOUND"])

        const v = yield* submitNew(["sl-free"])
        for (const slot of ["sl-gate", "sl-unknown"]) {
          const none = yield* cancel(v.token, slot)
          assert.deepStrictEqual([none.status, errorCode(none.text)], [404, "PLACE_NOT_FOUND"])
        }
        // The slot moved into the past: it has started, its place can no longer be given up, and nothing changed.
        const moved = yield* adminCall(organiserKey, "PATCH", "/admin/time-slots/sl-free", { date: "2020-01-01" })
        assert.strictEqual(moved.status, 200, moved.text)
        const closed = yield* cancel(v.token, "sl-free")
        assert.deepStrictEqual([closed.status, errorCode(closed.text)], [409, "CANCEL_CLOSED"])
        assert.deepStrictEqual(yield* placesOf(v.token), [["sl-free", "confirmed", null]])
      }))

    it.effect("cancel_until_hours: a confirmed place only until that many hours before the start, a waiting one until the start", () =>
      Effect.gen(function*() {
        const fields = [{ slug: "shifts", label: "Shifts", type: "time_slots" }]
        const refused = [
          { type: "registration", cancel_until_hours: 1, fields: [{ slug: "email", label: "Email", type: "email" }] },
          { type: "volunteer", cancel_until_hours: 721 },
          { type: "volunteer", cancel_until_hours: -1 },
          { type: "volunteer", cancel_until_hours: 2.5 },
          { type: "volunteer", cancel_until_hours: "24" }
        ]
        for (const body of refused) {
          const answer = yield* adminCall(organiserKey, "POST", "/admin/forms", { name: "Strict", event_id: "ev-sh", fields, ...body })
          assert.strictEqual(answer.status, 422, JSON.stringify(body))
          const problems = (json(answer)["error"] as { fields: Record<string, ReadonlyArray<{ rule: string }>> }).fields
          assert.deepStrictEqual(Object.keys(problems), ["cancel_until_hours"], JSON.stringify(body))
          assert.strictEqual(problems["cancel_until_hours"]?.[0]?.rule, "invalid")
        }
        const created = yield* adminCall(organiserKey, "POST", "/admin/forms", {
          name: "Strict", type: "volunteer", event_id: "ev-sh", status: "published", cancel_until_hours: 720, fields
        })
        assert.strictEqual(created.status, 201, created.text)
        assert.strictEqual(data(created)["cancel_until_hours"], 720)
        const form = `/public/forms/${String(data(created)["public_token"])}`
        // A slot ten days ahead: within the 720 hours.
        const day = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10)
        const slot = yield* adminCall(organiserKey, "POST", "/admin/events/ev-sh/time-slots", {
          name: "Soon", date: day, start_time: "08:00", end_time: "12:00", capacity: 1, waitlist: true
        })
        assert.strictEqual(slot.status, 201, slot.text)
        const slotId = String(data(slot)["id"])
        const tokens: Array<string> = []
        for (let i = 0; i < 2; i++) {
          const draft = yield* call(`${form}/submissions`, { method: "POST", body: { idempotency_key: `strict-${i}-0123456789abcdef` } })
          const answer = yield* call(`${form}/submissions/${String(dataOf(draft)["id"])}/submit`, {
            method: "POST",
            body: { values: { shifts: [slotId] } }
          })
          assert.strictEqual(answer.status, 200, answer.text)
          tokens.push(String(dataOf(answer)["manage_url"]).split("/m/")[1] ?? "")
        }
        const [confirmed, waiting] = tokens as [string, string]
        const closed = yield* cancel(confirmed, slotId)
        assert.deepStrictEqual([closed.status, errorCode(closed.text)], [409, "CANCEL_CLOSED"])
        assert.deepStrictEqual(yield* placesOf(waiting), [[slotId, "waitlisted", 1]])
        assert.strictEqual((yield* cancel(waiting, slotId)).status, 204)
        assert.deepStrictEqual(yield* placesOf(confirmed), [[slotId, "confirmed", null]])
      }))

    it.effect("the organiser issues a new link: 201, the old one stops working, audited; another's submission 404", () =>
      Effect.gen(function*() {
        const v = yield* submitNew(["sl-race"])
        const issued = yield* adminCall(organiserKey, "POST", `/admin/submissions/${v.id}/manage-link`)
        assert.strictEqual(issued.status, 201, issued.text)
        const url = String(data(issued)["manage_url"])
        const token = /\/m\/([A-Za-z0-9_-]{43})$/.exec(url)?.[1] ?? ""
        assert.notStrictEqual(token, v.token)
        assert.strictEqual((yield* manage(v.token)).status, 404)
        assert.deepStrictEqual(yield* placesOf(token), [["sl-race", "confirmed", null]])
        const audit = yield* adminCall(organiserKey, "GET", "/admin/audit-log?limit=200")
        const entries = json(audit)["data"] as ReadonlyArray<Record<string, unknown>>
        assert.isTrue(entries.some((e) => e["action"] === "submission.manage_link_created" && e["resource_id"] === v.id))
        const missing = yield* adminCall(organiserKey, "POST", "/admin/submissions/00000000-0000-4000-8000-000000000000/manage-link")
        assert.deepStrictEqual([missing.status, errorCode(missing.text)], [404, "SUBMISSION_NOT_FOUND"])
      }))
  })
}

reportSkippedPostgres("managing one's shifts")
