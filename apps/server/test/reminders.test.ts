/**
 * Reminders, promotions and portal messages on the whole server, PGlite and PostgreSQL, with a test clock for the
 * sweep: a submit schedules its shift reminders; an erasure promotes a waiting place with its `promotion` message;
 * the sweep reminds confirmed places only, once, never after the start; a portal link mailed with `send_to`
 * (422 `email` first, nothing written); section reminders before due dates, once each (two sweeps in parallel),
 * none for a submitted or locked section, none for a moment past when the due date was set, none without a contact.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { fileURLToPath } from "node:url"
import { makeRemindersDue } from "@forms/domain"
import { adminCall, data, json, keyOf } from "./adminSupport.js"
import { backends, reportSkippedPostgres } from "./backends.js"
import { call, dataOf, envelope, liveOptions, testServer } from "./harness.js"

const hour = 3_600_000
const shiftsFixturePath = fileURLToPath(new URL("./shifts.fixture.json", import.meta.url))
const shiftsForm = "/public/forms/shifts-form-token-0001"
const organiserKey = "fok_shifts_test_key_0123456789abcdefghijklmnop"
const shiftsEnv = { FIXTURE_FILE: shiftsFixturePath, SUBMIT_RATE_LIMIT_PER_HOUR: "1000", WRITE_RATE_LIMIT_PER_HOUR: "1000" }

/** Two sweeps at once at `at` on a test clock (on PostgreSQL they run in parallel): answers the messages made. */
const sweepAt = (at: number) =>
  Effect.gen(function*() {
    yield* TestClock.setTime(at)
    const [a, b] = yield* Effect.all([makeRemindersDue(), makeRemindersDue()], { concurrency: 2 })
    return a + b
  }).pipe(Effect.provide(TestClock.layer()))

let counter = 0
const submitNew = (email: string, shifts: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const created = yield* call(`${shiftsForm}/submissions`, {
      method: "POST",
      body: { idempotency_key: `reminders-${String(++counter).padStart(6, "0")}-0123456789abcdef`, values: { email } }
    })
    const id = String(dataOf(created)["id"])
    const answer = yield* call(`${shiftsForm}/submissions/${id}/submit`, { method: "POST", body: { values: { shifts } } })
    assert.strictEqual(answer.status, 200, answer.text)
    return id
  })

const messagesOf = (where: { readonly submission?: string; readonly engagement?: string }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return yield* sql<{ readonly kind: string; readonly to_address: string; readonly subject: string; readonly body: string; readonly status: string }>`
      SELECT kind, to_address, subject, body, status FROM messages
      WHERE submission_id IS NOT DISTINCT FROM ${where.submission ?? null}::uuid
        AND engagement_id IS NOT DISTINCT FROM ${where.engagement ?? null}
      ORDER BY seq`
  })

for (const backend of backends) {
  layer(testServer(backend, shiftsEnv), liveOptions)(`shift reminders and promotions (${backend})`, (it) => {
    it.effect("a submit schedules its reminders; an erasure promotes with a message; the sweep reminds once, never late past the start", () =>
      Effect.gen(function*() {
        const form = data(yield* adminCall(organiserKey, "GET", "/admin/forms/fs-shifts"))
        const put = yield* adminCall(organiserKey, "PUT", "/admin/forms/fs-shifts", {
          ...form,
          messages: {
            confirmation: { to_field: "email", subject: "Thanks", body: "{{answers}}" },
            reminders: [{ hours_before: 24 }]
          }
        }, { "if-match": "*" })
        assert.strictEqual(put.status, 200, put.text)
        const slot = yield* adminCall(organiserKey, "POST", "/admin/events/ev-sh/time-slots", {
          name: "Late bar", date: "2030-06-01", start_time: "10:00", end_time: "12:00", capacity: 1, waitlist: true
        })
        assert.strictEqual(slot.status, 201, slot.text)
        const slotId = String(data(slot)["id"])
        const start = Date.parse("2030-06-01T10:00:00Z")

        const holder = yield* submitNew("holder@example.org", [slotId])
        const waiting = yield* submitNew("waiting@example.org", [slotId])
        const sql = yield* SqlClient.SqlClient
        const schedule = yield* sql<{ readonly submission_id: string; readonly to_address: string; readonly state: string }>`
          SELECT submission_id::text AS submission_id, to_address, state FROM shift_reminders WHERE slot_id = ${slotId}
          ORDER BY to_address`
        assert.deepStrictEqual(schedule.map((r) => [r.submission_id, r.to_address, r.state]), [
          [holder, "holder@example.org", "scheduled"],
          [waiting, "waiting@example.org", "scheduled"]
        ])

        // The holder is erased: the waiting place is confirmed, and its promotion message recorded with it.
        const erased = yield* adminCall(organiserKey, "DELETE", `/admin/submissions/${holder}`)
        assert.strictEqual(erased.status, 204, erased.text)
        const promoted = yield* messagesOf({ submission: waiting })
        assert.deepStrictEqual(promoted.map((m) => [m.kind, m.to_address, m.status, m.subject]), [
          ["confirmation", "waiting@example.org", "held", "Thanks"],
          ["promotion", "waiting@example.org", "held", "Your place is confirmed: Late bar (Volunteer shifts)"]
        ])
        assert.include(promoted[1]?.body ?? "", "Late bar: 2030-06-01 10:00–12:00 (UTC)")

        assert.strictEqual(yield* sweepAt(start - 24 * hour - 1), 0)
        assert.strictEqual(yield* sweepAt(start - 24 * hour), 1)
        assert.strictEqual(yield* sweepAt(start - 23 * hour), 0)
        const reminded = yield* messagesOf({ submission: waiting })
        assert.deepStrictEqual(reminded.map((m) => m.kind), ["confirmation", "promotion", "reminder"])
        assert.strictEqual(reminded[2]?.subject, "Reminder: Late bar (Volunteer shifts)")
        assert.strictEqual(yield* sweepAt(start + hour), 0)
      }))
  })

  layer(testServer(backend, { TRUST_PROXY_HOPS: "1" }), liveOptions)(`portal messages (${backend})`, (it) => {
    it.effect("a portal link mailed with send_to: 404 before 422, 422 email writes nothing, a portal_link message with the page_url", () =>
      Effect.gen(function*() {
        const { key } = yield* keyOf("org-u")
        const created = yield* adminCall(key, "POST", "/admin/engagements", {
          event_id: "ev-u", master_artist_id: "ma-1", advance_sections: [{ name: "Travel", position: 1 }]
        })
        const id = String(data(created)["id"])
        const unknown = yield* adminCall(key, "POST", "/admin/engagements/nope/portal-link", { send_to: "not an address" })
        assert.strictEqual(unknown.text, envelope("ENGAGEMENT_NOT_FOUND", "No engagement has this id."))
        const first = data(yield* adminCall(key, "POST", `/admin/engagements/${id}/portal-link`))
        assert.deepStrictEqual(yield* messagesOf({ engagement: id }), [])

        const refused = yield* adminCall(key, "POST", `/admin/engagements/${id}/portal-link`, { send_to: "not an address" })
        assert.strictEqual(refused.status, 422, refused.text)
        assert.deepStrictEqual((json(refused)["error"] as Record<string, unknown>)["fields"], {
          send_to: [{ rule: "email", message: "A valid email address is expected." }]
        })
        const extra = yield* adminCall(key, "POST", `/admin/engagements/${id}/portal-link`, { send_to: "m@example.org", cc: "x" })
        assert.strictEqual(extra.status, 422, extra.text)
        // Nothing written: the first link still opens the portal, and no message was recorded.
        const firstPortal = `/p/artist/${String(first["portal_url"]).split("/p/artist/")[1]}`
        assert.strictEqual((yield* call(firstPortal, { headers: { "x-forwarded-for": "198.51.100.7" } })).status, 200)
        assert.deepStrictEqual(yield* messagesOf({ engagement: id }), [])

        const mailed = yield* adminCall(key, "POST", `/admin/engagements/${id}/portal-link`, { send_to: "manager@example.org" })
        assert.strictEqual(mailed.status, 200, mailed.text)
        const pageUrl = String(data(mailed)["page_url"])
        const rows = yield* messagesOf({ engagement: id })
        assert.deepStrictEqual(rows.map((m) => [m.kind, m.to_address, m.status]), [["portal_link", "manager@example.org", "held"]])
        assert.include(rows[0]?.body ?? "", pageUrl)
        assert.strictEqual((yield* call(firstPortal, { headers: { "x-forwarded-for": "198.51.100.8" } })).status, 404)
      }))

    it.effect("section reminders before due dates: once each, none submitted, locked, past when set or without a contact", () =>
      Effect.gen(function*() {
        const { key } = yield* keyOf("org-u")
        const now = Math.ceil(Date.now() / 60_000) * 60_000
        const due = new Date(now + 100 * hour).toISOString()
        const soon = new Date(now + 60 * hour).toISOString()
        const created = yield* adminCall(key, "POST", "/admin/engagements", {
          event_id: "ev-u",
          master_artist_id: "ma-1",
          contact_email: "manager@example.org",
          advance_sections: [
            { name: "Travel", position: 1, due_at: due },
            { name: "Hospitality", position: 2, due_at: due },
            { name: "Stage", position: 3, due_at: due, locked: true },
            // Its 72-hour moment was already past when the due date was set: only the 24-hour one is made.
            { name: "Catering", position: 4, due_at: soon }
          ]
        })
        assert.strictEqual(created.status, 201, created.text)
        const engagement = data(created)
        const id = String(engagement["id"])
        const travel = String((engagement["advance_sections"] as ReadonlyArray<Record<string, unknown>>)[0]?.["id"])
        const silent = yield* adminCall(key, "POST", "/admin/engagements", {
          event_id: "ev-u", master_artist_id: "ma-1", advance_sections: [{ name: "Hospitality", position: 1, due_at: due }]
        })
        const silentId = String(data(silent)["id"])
        // The Travel section is submitted through the portal.
        const link = data(yield* adminCall(key, "POST", `/admin/engagements/${id}/portal-link`))
        const portal = `/p/artist/${String(link["portal_url"]).split("/p/artist/")[1]}`
        const sent = yield* call(`${portal}/sections/${travel}`, {
          method: "POST", body: { values: { arrival: "2027-08-19" } }, headers: { "x-forwarded-for": "198.51.100.9" }
        })
        assert.strictEqual(sent.status, 200, sent.text)

        const subjects = Effect.map(messagesOf({ engagement: id }), (rows) => rows.map((m) => [m.kind, m.to_address, m.subject]))
        const dueText = `${due.slice(0, 16).replace("T", " ")} UTC`
        const soonText = `${soon.slice(0, 16).replace("T", " ")} UTC`
        assert.strictEqual(yield* sweepAt(now + 28 * hour - 1), 0)
        assert.strictEqual(yield* sweepAt(now + 28 * hour), 1)
        assert.deepStrictEqual(yield* subjects, [
          ["section_reminder", "manager@example.org", `Due ${dueText}: Hospitality (Other festival)`]
        ])
        assert.strictEqual(yield* sweepAt(now + 30 * hour), 0)
        assert.strictEqual(yield* sweepAt(now + 36 * hour), 1)
        assert.strictEqual(yield* sweepAt(now + 76 * hour), 1)
        assert.strictEqual(yield* sweepAt(now + 99 * hour), 0)
        assert.deepStrictEqual(yield* subjects, [
          ["section_reminder", "manager@example.org", `Due ${dueText}: Hospitality (Other festival)`],
          ["section_reminder", "manager@example.org", `Due ${soonText}: Catering (Other festival)`],
          ["section_reminder", "manager@example.org", `Due ${dueText}: Hospitality (Other festival)`]
        ])
        assert.deepStrictEqual(yield* messagesOf({ engagement: silentId }), [])
      }))
  })
}
reportSkippedPostgres("reminders and portal messages")
