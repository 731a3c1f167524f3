/**
 * Deadlines and locks of advance sections over HTTP, on PGlite and PostgreSQL: an engagement's contact, a
 * section's due date and lock set by the organiser, every state of a section in the portal's summary and the
 * organiser's engagement (pending, submitted, locked by hand, locked by time, opened after `locks_at`, overdue),
 * the overdue filter, the events, and 50 parallel section submits against one lock.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { adminCall, data, json, keyOf, list } from "./adminSupport.js"
import { backends } from "./backends.js"
import { call, envelope, eventually, liveOptions, testServer } from "./harness.js"

const locked409 = envelope("SECTION_LOCKED", "This section is locked: it takes no more answers.")
const past = "2020-01-01T00:00:00.000Z"
const future = "2099-01-01T00:00:00.000Z"

// TRUST_PROXY_HOPS=1: each request names its client, so the portal limit (30 a minute per client) is not reached.
let clients = 0
const client = () => {
  clients += 1
  return `198.51.${Math.floor(clients / 250) % 250}.${clients % 250}`
}
const portalPost = (path: string, values: unknown) =>
  call(path, { method: "POST", body: { values }, headers: { "x-forwarded-for": client() } })
const portalGet = (path: string) => call(path, { headers: { "x-forwarded-for": client() } })

type Section = Record<string, unknown>

/** An engagement of org-u (whose advance form has a Travel section) with a portal link. */
const newEngagement = (key: string, extra: Record<string, unknown> = {}) =>
  Effect.gen(function*() {
    const created = yield* adminCall(key, "POST", "/admin/engagements", {
      event_id: "ev-u",
      master_artist_id: "ma-1",
      advance_sections: [{ name: "Travel", position: 1 }, { name: "Hospitality", position: 2, due_at: past }],
      ...extra
    })
    assert.strictEqual(created.status, 201, created.text)
    const engagement = data(created)
    const sections = engagement["advance_sections"] as ReadonlyArray<Section>
    const link = data(yield* adminCall(key, "POST", `/admin/engagements/${String(engagement["id"])}/portal-link`))
    const token = String(link["portal_url"]).split("/p/artist/")[1] ?? ""
    return {
      id: String(engagement["id"]),
      engagement,
      travel: String(sections[0]?.["id"]),
      hospitality: String(sections[1]?.["id"]),
      portal: `/p/artist/${token}`
    }
  })

const summarySection = (portal: string, id: string) =>
  Effect.map(portalGet(portal), (res) => (data(res)["sections"] as ReadonlyArray<Section>).find((s) => s["id"] === id))

const adminSection = (key: string, engagementId: string, id: string) =>
  Effect.map(adminCall(key, "GET", `/admin/engagements/${engagementId}`), (res) =>
    (data(res)["advance_sections"] as ReadonlyArray<Section>).find((s) => s["id"] === id))

const patchSection = (key: string, engagementId: string, sectionId: string, body: unknown) =>
  adminCall(key, "PATCH", `/admin/engagements/${engagementId}/sections/${sectionId}`, body)

const lockEvents = (sectionId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ readonly type: string }>`SELECT type FROM outbox WHERE payload->>'section_id' = ${sectionId}
      AND type IN ('section.locked', 'section.reopened') ORDER BY seq`
    return rows.map((r) => r.type)
  })

for (const backend of backends) {
  layer(testServer(backend, { TRUST_PROXY_HOPS: "1" }), liveOptions)(`section deadlines and locks (${backend})`, (it) => {
    describe("the organiser's side", () => {
      it.effect("contact_email on create and by PATCH (null clears; 422 email), audited engagement.updated", () =>
        Effect.gen(function*() {
          const { key } = yield* keyOf("org-u")
          const bad = yield* adminCall(key, "POST", "/admin/engagements", {
            event_id: "ev-u", master_artist_id: "ma-1", advance_sections: [], contact_email: "not an address"
          })
          assert.strictEqual(bad.status, 422)
          assert.deepStrictEqual((json(bad)["error"] as Record<string, unknown>)["fields"], {
            contact_email: [{ rule: "email", message: "A valid email address is expected." }]
          })
          const { id, engagement } = yield* newEngagement(key, { contact_email: "manager@example.org" })
          assert.strictEqual(engagement["contact_email"], "manager@example.org")
          const refused = yield* adminCall(key, "PATCH", `/admin/engagements/${id}`, { contact_email: "nope" })
          assert.strictEqual(refused.status, 422)
          const cleared = yield* adminCall(key, "PATCH", `/admin/engagements/${id}`, { contact_email: null })
          assert.strictEqual(cleared.status, 200, cleared.text)
          assert.isNull(data(cleared)["contact_email"])
          const shown = data(yield* adminCall(key, "GET", `/admin/engagements/${id}`))
          assert.isNull(shown["contact_email"])
          const audit = list(yield* adminCall(key, "GET", "/admin/audit-log?limit=5"))
          assert.deepStrictEqual([audit[0]?.["action"], audit[0]?.["resource_id"]], ["engagement.updated", id])
          // Another organisation's key: the same 404 as an unknown id.
          const other = yield* keyOf("org-t")
          const foreign = yield* adminCall(other.key, "PATCH", `/admin/engagements/${id}`, { contact_email: null })
          assert.strictEqual(foreign.status, 404)
          assert.strictEqual(foreign.text, envelope("ENGAGEMENT_NOT_FOUND", "No engagement has this id."))
        }))

      it.effect("a section's PATCH: 404 engagement then section, 422 members, 200 the engagement; audited", () =>
        Effect.gen(function*() {
          const { key } = yield* keyOf("org-u")
          const { id, travel } = yield* newEngagement(key)
          const unknown = yield* patchSection(key, "nope", "nope", { locked: 3 })
          assert.strictEqual(unknown.text, envelope("ENGAGEMENT_NOT_FOUND", "No engagement has this id."))
          const noSection = yield* patchSection(key, id, "nope", { locked: 3 })
          assert.strictEqual(noSection.status, 404)
          assert.strictEqual(noSection.text, envelope("SECTION_NOT_FOUND", "This engagement has no advance section with this id."))
          const bad = yield* patchSection(key, id, travel, { locked: 3, due_at: "tomorrow", locks_at: "2027-08-20", extra: 1 })
          assert.strictEqual(bad.status, 422)
          assert.deepStrictEqual(Object.keys((json(bad)["error"] as Record<string, unknown>)["fields"] as object).sort(), [
            "due_at", "extra", "locked", "locks_at"
          ])
          // An instant PostgreSQL cannot hold (year 0000 in UTC) is a 422 too, never a 5xx.
          const early = yield* patchSection(key, id, travel, { due_at: "0001-01-01T00:00:00+05:00" })
          assert.strictEqual(early.status, 422, early.text)
          const ok = yield* patchSection(key, id, travel, { due_at: "2099-01-01T02:00:00+02:00", locks_at: future })
          assert.strictEqual(ok.status, 200, ok.text)
          const section = (data(ok)["advance_sections"] as ReadonlyArray<Section>).find((s) => s["id"] === travel)
          assert.deepStrictEqual(section, {
            id: travel, name: "Travel", position: 1, status: "pending", submitted_at: null,
            due_at: future, locks_at: future, locked: false, lock_setting: null, overdue: false
          })
          const audit = list(yield* adminCall(key, "GET", "/admin/audit-log?limit=1"))
          assert.deepStrictEqual([audit[0]?.["action"], audit[0]?.["resource_type"], audit[0]?.["resource_id"]], [
            "engagement_section.updated", "engagement", id
          ])
        }))
    })

    describe("every state, in the portal's summary and the organiser's engagement", () => {
      it.effect("pending, overdue, submitted, locked by hand, locked by time, opened after locks_at", () =>
        Effect.gen(function*() {
          const { key } = yield* keyOf("org-u")
          const { id, travel, hospitality, portal } = yield* newEngagement(key)
          const state = (sectionId: string) =>
            Effect.gen(function*() {
              const shown = yield* summarySection(portal, sectionId)
              const admin = yield* adminSection(key, id, sectionId)
              const pick = (s: Section | undefined) => ({
                status: s?.["status"], locked: s?.["locked"], due_at: s?.["due_at"], locks_at: s?.["locks_at"], overdue: s?.["overdue"]
              })
              assert.deepStrictEqual(pick(shown), pick(admin))
              return { ...pick(shown), lock_setting: admin?.["lock_setting"] }
            })
          // Pending, nothing set.
          assert.deepStrictEqual(yield* state(travel), {
            status: "pending", locked: false, due_at: null, locks_at: null, overdue: false, lock_setting: null
          })
          // Overdue: pending with due_at passed (set on create).
          assert.deepStrictEqual(yield* state(hospitality), {
            status: "pending", locked: false, due_at: past, locks_at: null, overdue: true, lock_setting: null
          })
          const overdueList = list(yield* adminCall(key, "GET", "/admin/engagements?overdue=true&limit=200")).map((e) => e["id"])
          assert.include(overdueList, id)
          // Submitted: no longer overdue, even with due_at passed.
          yield* patchSection(key, id, travel, { due_at: past })
          const submitted = yield* portalPost(`${portal}/sections/${travel}`, { arrival: "2027-08-19" })
          assert.strictEqual(submitted.status, 200, submitted.text)
          assert.deepStrictEqual(yield* state(travel), {
            status: "submitted", locked: false, due_at: past, locks_at: null, overdue: false, lock_setting: null
          })
          // Locked by hand: the POST is 409 (with the portal's RateLimit fields), the GET still shows the values.
          yield* patchSection(key, id, travel, { locked: true })
          assert.deepStrictEqual(yield* state(travel), {
            status: "submitted", locked: true, due_at: past, locks_at: null, overdue: false, lock_setting: true
          })
          const refused = yield* portalPost(`${portal}/sections/${travel}`, { arrival: "2027-09-01" })
          assert.strictEqual(refused.status, 409)
          assert.strictEqual(refused.text, locked409)
          assert.match(refused.headers.get("ratelimit") ?? "", /^"portal";r=\d+;t=\d+$/)
          // The lock comes before validation: an invalid body is 409 too.
          assert.strictEqual((yield* portalPost(`${portal}/sections/${travel}`, { arrival: "not a date" })).status, 409)
          const read = yield* portalGet(`${portal}/sections/${travel}`)
          assert.strictEqual(read.status, 200)
          assert.deepStrictEqual(data(read)["values"], { arrival: "2027-08-19" })
          // Locked by time: locked null, locks_at passed.
          yield* patchSection(key, id, travel, { locked: null, locks_at: past })
          assert.deepStrictEqual(yield* state(travel), {
            status: "submitted", locked: true, due_at: past, locks_at: past, overdue: false, lock_setting: null
          })
          assert.strictEqual((yield* portalPost(`${portal}/sections/${travel}`, { arrival: "2027-09-01" })).text, locked409)
          // Opened after locks_at: locked false keeps it open.
          yield* patchSection(key, id, travel, { locked: false })
          assert.deepStrictEqual(yield* state(travel), {
            status: "submitted", locked: false, due_at: past, locks_at: past, overdue: false, lock_setting: false
          })
          assert.strictEqual((yield* portalPost(`${portal}/sections/${travel}`, { arrival: "2027-09-01" })).status, 200)
          // ... until locked again.
          yield* patchSection(key, id, travel, { locked: null })
          assert.strictEqual((yield* portalPost(`${portal}/sections/${travel}`, { arrival: "2027-09-02" })).text, locked409)
          // An organiser's change that moves the state records an event; locks_at reached by time records none.
          assert.deepStrictEqual(yield* lockEvents(travel), ["section.locked", "section.reopened", "section.locked"])
          yield* patchSection(key, id, hospitality, { locks_at: new Date(Date.now() + 1500).toISOString() })
          yield* Effect.sleep("1600 millis")
          assert.strictEqual((yield* summarySection(portal, hospitality))?.["locked"], true)
          assert.deepStrictEqual(yield* lockEvents(hospitality), [])
        }))

      it.effect("GET /admin/engagements?overdue=true lists only engagements with an overdue section; another value is 400", () =>
        Effect.gen(function*() {
          const { key } = yield* keyOf("org-u")
          const overdue = yield* newEngagement(key)
          const fine = yield* newEngagement(key, { advance_sections: [{ name: "Travel", position: 1, due_at: future }] })
          const ids = list(yield* adminCall(key, "GET", "/admin/engagements?overdue=true&limit=200")).map((e) => e["id"])
          assert.include(ids, overdue.id)
          assert.notInclude(ids, fine.id)
          for (const e of list(yield* adminCall(key, "GET", "/admin/engagements?overdue=true&limit=200"))) {
            assert.isTrue((e["advance_sections"] as ReadonlyArray<Section>).some((s) => s["overdue"] === true))
          }
          for (const bad of ["yes", "false", "", "true&overdue=true"]) {
            const res = yield* adminCall(key, "GET", `/admin/engagements?overdue=${bad}`)
            assert.strictEqual(res.status, 400, bad)
            assert.strictEqual(res.text, envelope("INVALID_QUERY", "A query parameter is malformed."))
          }
          // Another organisation sees none of them.
          const other = yield* keyOf("org-t")
          const theirs = list(yield* adminCall(other.key, "GET", "/admin/engagements?overdue=true&limit=200")).map((e) => e["id"])
          assert.notInclude(theirs, overdue.id)
        }))
    })

    describe("webhooks", () => {
      it.effect("section.locked and section.reopened reach the endpoints subscribed to them, with the advance form", () =>
        Effect.gen(function*() {
          const { key } = yield* keyOf("org-u")
          const { id, travel } = yield* newEngagement(key)
          const hook = data(yield* adminCall(key, "POST", "/admin/webhooks", {
            url: "https://hooks.example.com/locks",
            event_types: ["section.locked", "section.reopened"]
          }))
          const hookId = String(hook["id"])
          // Disabled: deliveries are queued, nothing is sent.
          yield* adminCall(key, "PATCH", `/admin/webhooks/${hookId}`, { enabled: false })
          yield* patchSection(key, id, travel, { locked: true })
          yield* patchSection(key, id, travel, { due_at: future })
          yield* patchSection(key, id, travel, { locked: null })
          const deliveries = yield* eventually(
            Effect.map(adminCall(key, "GET", `/admin/webhooks/${hookId}/deliveries`), list),
            (items) => items.length >= 2
          )
          assert.deepStrictEqual(deliveries.map((d) => d["event_type"]).sort(), ["section.locked", "section.reopened"])
          const sql = yield* SqlClient.SqlClient
          const rows = yield* sql<{ readonly form_id: string | null; readonly organisation_id: string }>`
            SELECT form_id, organisation_id FROM webhook_deliveries WHERE endpoint_id = ${hookId}`
          assert.deepStrictEqual(rows.map((r) => [r.organisation_id, r.form_id]), [["org-u", "fs-advance"], ["org-u", "fs-advance"]])
        }))
    })

    describe("section drafts", () => {
      it.effect("PUT saves a half-filled section with relaxed rules (the section stays pending); 409 once locked", () =>
        Effect.gen(function*() {
          const { key } = yield* keyOf("org-u")
          const { id, travel, portal } = yield* newEngagement(key)
          const path = `${portal}/sections/${travel}`
          const put = (values: unknown) => call(path, { method: "PUT", body: { values }, headers: { "x-forwarded-for": "198.51.100.77" } })
          // `arrival` is required: a draft without it is saved all the same; slugs of other sections are dropped.
          const saved = yield* put({ travel_notes: "By train", guests: 3 })
          assert.strictEqual(saved.status, 200, saved.text)
          assert.deepStrictEqual(data(saved)["values"], { travel_notes: "By train" })
          assert.deepStrictEqual(data(saved)["section"], { id: travel, name: "Travel", status: "pending", submitted_at: null })
          assert.match(saved.headers.get("ratelimit") ?? "", /^"portal";r=29;t=\d+$/)
          const bad = yield* put({ arrival: "not a date" })
          assert.strictEqual(bad.status, 422)
          assert.deepStrictEqual(Object.keys((json(bad)["error"] as Record<string, unknown>)["fields"] as object), ["arrival"])
          assert.deepStrictEqual(data(yield* portalGet(path))["values"], { travel_notes: "By train" })
          assert.strictEqual((yield* summarySection(portal, travel))?.["status"], "pending")
          // A submit then needs only what is missing.
          assert.strictEqual((yield* portalPost(path, { arrival: "2027-08-19" })).status, 200)
          assert.deepStrictEqual(data(yield* portalGet(path))["values"], { arrival: "2027-08-19", travel_notes: "By train" })
          yield* patchSection(key, id, travel, { locked: true })
          const refused = yield* put({ travel_notes: "Late" })
          assert.strictEqual(refused.status, 409)
          assert.strictEqual(refused.text, locked409)
          assert.match(refused.headers.get("ratelimit") ?? "", /^"portal";r=27;t=\d+$/)
          assert.deepStrictEqual(data(yield* portalGet(path))["values"], { arrival: "2027-08-19", travel_notes: "By train" })
        }))
    })

    describe("a lock against submits in flight", () => {
      it.effect("50 parallel section POSTs against one lock: every 200 committed before the lock, none after", () =>
        Effect.gen(function*() {
          const { key } = yield* keyOf("org-u")
          const { id, travel, portal } = yield* newEngagement(key)
          const sql = yield* SqlClient.SqlClient
          const path = `${portal}/sections/${travel}`
          // Submits in parallel, sent over ~100 ms; the lock is sent among them.
          const submits = Array.from({ length: 50 }, (_, i) =>
            Effect.gen(function*() {
              yield* Effect.sleep(`${2 * i} millis`)
              const res = yield* portalPost(path, { arrival: "2027-08-19", travel_notes: `submit ${i}` })
              return { i, status: res.status, text: res.text }
            }))
          const lock = Effect.gen(function*() {
            yield* Effect.sleep("50 millis")
            const res = yield* patchSection(key, id, travel, { locked: true })
            assert.strictEqual(res.status, 200, res.text)
          })
          const [, answers] = yield* Effect.all(
            [lock, Effect.all(submits, { concurrency: "unbounded" })],
            { concurrency: "unbounded" }
          )
          for (const a of answers) assert.include([200, 409], a.status, a.text)
          // The lock landed among the submits (sent from 0 to 98 ms; the lock at 50 ms).
          assert.isAbove(answers.filter((a) => a.status === 409).length, 0)
          for (const a of answers.filter((x) => x.status === 409)) assert.strictEqual(a.text, locked409)
          // After the lock's answer, every submit is refused.
          const after = yield* Effect.all(Array.from({ length: 5 }, (_, i) => portalPost(path, { travel_notes: `late ${i}` })))
          for (const late of after) assert.strictEqual(late.text, locked409)
          // In the database: every accepted submit's event precedes the lock's, and the stored values are the last one's.
          const events = yield* sql<{ readonly type: string; readonly note: string | null }>`
            SELECT type, payload->'values'->>'travel_notes' AS note FROM outbox
            WHERE payload->>'section_id' = ${travel} ORDER BY seq`
          const lockIndex = events.findIndex((e) => e.type === "section.locked")
          assert.isAtLeast(lockIndex, 0)
          assert.deepStrictEqual(events.slice(lockIndex + 1), [])
          const accepted = answers.filter((a) => a.status === 200).map((a) => `submit ${a.i}`).sort()
          assert.deepStrictEqual(events.filter((e) => e.type === "section.submitted").map((e) => e.note ?? "").sort(), accepted)
          const stored = data(yield* portalGet(path))["values"] as Record<string, unknown>
          const last = events.filter((e) => e.type === "section.submitted").at(-1)
          assert.strictEqual(stored["travel_notes"], last?.note ?? undefined)
        }), { timeout: 120_000 })
    })
  })
}
