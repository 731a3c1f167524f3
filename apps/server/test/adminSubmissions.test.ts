import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { HttpApi } from "effect/http-api"
import { SqlClient } from "effect/sql"
import { Api } from "@forms/adapters-http"
import { adminCall, data, json, keyOf, list } from "./adminSupport.js"
import { backends, reportSkippedPostgres } from "./backends.js"
import { call, dataOf, envelope, eventually, liveOptions, testServer } from "./harness.js"
import { tablesContaining } from "./submissionsOutSupport.js"

const env = { SUBMIT_RATE_LIMIT_PER_HOUR: "10000", WRITE_RATE_LIMIT_PER_HOUR: "10000" }
const contactForm = "/public/forms/test-contact-token-0001"
const openForm = "/public/forms/test-open-token-0001"
const invalid = (parameter: string) => envelope("INVALID_QUERY", `The query parameter "${parameter}" is malformed.`)

/** Creates and submits a submission of the form at `form`; its id. */
const submit = (form: string, key: string, values: Record<string, unknown>) =>
  Effect.gen(function*() {
    const created = yield* call(`${form}/submissions`, { method: "POST", body: { idempotency_key: key } })
    assert.include([200, 201], created.status, created.text)
    const id = String(dataOf(created)["id"])
    const submitted = yield* call(`${form}/submissions/${id}/submit`, { method: "POST", body: { values } })
    assert.strictEqual(submitted.status, 200, submitted.text)
    return id
  })

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`

/** The routes of the group, as `METHOD path` with sample ids. */
const routes: ReadonlyArray<readonly [string, string, string]> = [
  ["GET", "/admin/forms/:formId/submissions", "/admin/forms/fs-contact/submissions"],
  ["GET", "/admin/submissions/:submissionId", "/admin/submissions/00000000-0000-4000-8000-000000000001"],
  ["GET", "/admin/forms/:formId/export", "/admin/forms/fs-contact/export"],
  ["DELETE", "/admin/submissions/:submissionId", "/admin/submissions/00000000-0000-4000-8000-000000000001"],
  ["GET", "/admin/contacts", "/admin/contacts"],
  ["DELETE", "/admin/contacts/:contactId", "/admin/contacts/00000000-0000-4000-8000-000000000001"],
  ["GET", "/admin/outbox", "/admin/outbox"],
  ["POST", "/admin/outbox/:eventId/retry", "/admin/outbox/00000000-0000-4000-8000-000000000001/retry"],
  ["POST", "/admin/submissions/:submissionId/manage-link", "/admin/submissions/00000000-0000-4000-8000-000000000001/manage-link"]
]

for (const backend of backends) {
  layer(testServer(backend, env), liveOptions)(`submissions out (${backend})`, (it) => {
    it.effect("every route of the group needs a key (401) and answers 404 with its own code for an unknown id", () =>
      Effect.gen(function*() {
        const defined: Array<string> = []
        HttpApi.reflect(Api, {
          onGroup: () => {},
          onEndpoint: ({ endpoint, group }) => {
            if (group.identifier === "submissionsOut") defined.push(`${endpoint.method} ${endpoint.path}`)
          }
        })
        assert.deepStrictEqual(routes.map(([m, t]) => `${m} ${t}`).sort(), defined.sort())
        const { key } = yield* keyOf("org-t")
        for (const [method, , path] of routes) {
          const res = yield* call(path, { method, headers: { authorization: "Bearer nope" } })
          assert.strictEqual(res.status, 401, `${method} ${path}`)
          assert.strictEqual(res.headers.get("www-authenticate"), "Bearer")
        }
        const codes: Record<string, string> = {
          "GET /admin/submissions/:submissionId": "SUBMISSION_NOT_FOUND",
          "DELETE /admin/submissions/:submissionId": "SUBMISSION_NOT_FOUND",
          "DELETE /admin/contacts/:contactId": "CONTACT_NOT_FOUND",
          "POST /admin/outbox/:eventId/retry": "OUTBOX_EVENT_NOT_FOUND",
          "POST /admin/submissions/:submissionId/manage-link": "SUBMISSION_NOT_FOUND"
        }
        for (const [method, template, path] of routes) {
          const code = codes[`${method} ${template}`]
          if (code === undefined) continue
          const res = yield* adminCall(key, method, path)
          assert.strictEqual(res.status, 404, `${method} ${path}`)
          assert.include(res.text, `"code":"${code}"`)
        }
      }))

    it.effect("listing: oldest first by keyset, status and since filters, tags and contact; scoped by organisation", () =>
      Effect.gen(function*() {
        const { key } = yield* keyOf("org-t")
        const { key: other } = yield* keyOf("org-u")
        const run = unique()
        const ids: Array<string> = []
        for (let i = 0; i < 3; i++) ids.push(yield* submit(contactForm, `list-${run}-${i}`, { email: `List.${run}.${i}@Example.org`, interest: "music" }))
        const draft = yield* call(`${contactForm}/submissions`, { method: "POST", body: { idempotency_key: `list-${run}-draft` } })
        const draftId = String(dataOf(draft)["id"])
        // The handlers (tag sync, identity match) run after the submit.
        const all = yield* eventually(
          Effect.map(adminCall(key, "GET", "/admin/forms/fs-contact/submissions?limit=200"), list),
          (rows) => ids.every((id) => rows.some((r) => r["id"] === id && r["contact_id"] !== null))
        )
        const mine = all.filter((r) => ids.includes(String(r["id"])) || r["id"] === draftId)
        assert.deepStrictEqual(mine.map((r) => r["id"]), [...ids, draftId])
        const first = mine[0]!
        assert.strictEqual(first["form_id"], "fs-contact")
        assert.deepStrictEqual(first["tags"], ["contact", "music-fan"])
        assert.deepStrictEqual(Object.keys(first).sort(), [
          "auto_save_count", "contact_id", "created_at", "event_id", "form_id", "id", "idempotency_key", "language",
          "status", "submitted_at", "tags", "updated_at", "values"
        ])
        // Keyset pages: every row once, in order.
        const seen: Array<unknown> = []
        let cursor: string | null = null
        do {
          const page = yield* adminCall(key, "GET", `/admin/forms/fs-contact/submissions?limit=2${cursor === null ? "" : `&cursor=${cursor}`}`)
          assert.strictEqual(page.status, 200, page.text)
          seen.push(...list(page).map((r) => r["id"]))
          cursor = json(page)["next_cursor"] as string | null
        } while (cursor !== null)
        assert.deepStrictEqual(seen, all.map((r) => r["id"]))
        const drafts = list(yield* adminCall(key, "GET", "/admin/forms/fs-contact/submissions?status=draft&limit=200"))
        assert.isTrue(drafts.every((r) => r["status"] === "draft"))
        assert.isTrue(drafts.some((r) => r["id"] === draftId))
        const future = yield* adminCall(key, "GET", "/admin/forms/fs-contact/submissions?since=2999-01-01T00:00:00Z")
        assert.deepStrictEqual(json(future), { data: [], next_cursor: null })
        const since = String(mine[1]!["updated_at"])
        const after = list(yield* adminCall(key, "GET", `/admin/forms/fs-contact/submissions?limit=200&since=${encodeURIComponent(since)}`))
        assert.isTrue(after.every((r) => String(r["updated_at"]) >= since))
        assert.isTrue(after.some((r) => r["id"] === ids[1]))
        const one = yield* adminCall(key, "GET", `/admin/submissions/${ids[0]}`)
        assert.deepStrictEqual(data(one), first)
        // Another organisation's key: the same answers as unknown ids.
        const notForm = envelope("FORM_NOT_FOUND", "No published form has this token.")
        const notSubmission = envelope("SUBMISSION_NOT_FOUND", "This form has no submission with this id.")
        assert.strictEqual((yield* adminCall(other, "GET", "/admin/forms/fs-contact/submissions")).text, notForm)
        assert.strictEqual((yield* adminCall(other, "GET", "/admin/forms/fs-contact/export")).text, notForm)
        assert.strictEqual((yield* adminCall(other, "GET", `/admin/submissions/${ids[0]}`)).text, notSubmission)
        assert.strictEqual((yield* adminCall(other, "DELETE", `/admin/submissions/${ids[0]}`)).text, notSubmission)
        assert.strictEqual((yield* adminCall(key, "GET", "/admin/submissions/not-a-uuid")).status, 404)
        const contactId = String(first["contact_id"])
        assert.strictEqual((yield* adminCall(other, "DELETE", `/admin/contacts/${contactId}`)).text, envelope("CONTACT_NOT_FOUND", "No contact has this id."))
        assert.deepStrictEqual(list(yield* adminCall(other, "GET", `/admin/contacts?email=list.${run}.0@example.org`)), [])
        // Contacts by email, compared lower-cased.
        const contacts = list(yield* adminCall(key, "GET", `/admin/contacts?email=${encodeURIComponent(`LIST.${run}.0@EXAMPLE.ORG`)}`))
        assert.strictEqual(contacts.length, 1)
        assert.deepStrictEqual(contacts[0], {
          id: contactId, key: `list.${run}.0@example.org`, tags: ["contact", "music-fan"], submission_ids: [ids[0]],
          created_at: contacts[0]!["created_at"]
        })
        // The admin limit's headers on every answer from that step on.
        assert.match(String((yield* adminCall(key, "GET", `/admin/submissions/${ids[0]}`)).headers.get("ratelimit-policy")), /"admin"/)
      }))

    it.effect("malformed status, since, format, limit, cursor, state, email: 400 INVALID_QUERY naming the parameter, not counted", () =>
      Effect.gen(function*() {
        const { key } = yield* keyOf("org-t")
        const cases: ReadonlyArray<readonly [string, string]> = [
          ["/admin/forms/fs-contact/submissions?status=done", "status"],
          ["/admin/forms/fs-contact/submissions?status=draft&status=submitted", "status"],
          ["/admin/forms/fs-contact/submissions?since=yesterday", "since"],
          ["/admin/forms/fs-contact/submissions?since=2027-02-30", "since"],
          ["/admin/forms/fs-contact/submissions?since=2027-01-01T10:00", "since"],
          ["/admin/forms/fs-contact/submissions?limit=0", "limit"],
          ["/admin/forms/fs-contact/submissions?limit=201", "limit"],
          ["/admin/forms/fs-contact/submissions?cursor=%21%21", "cursor"],
          ["/admin/forms/fs-contact/submissions?cursor=WzEsMl0", "cursor"],
          ["/admin/forms/fs-contact/export?format=xml", "format"],
          ["/admin/forms/fs-contact/export?status=all", "status"],
          ["/admin/outbox?state=gone", "state"],
          ["/admin/outbox?limit=x", "limit"],
          ["/admin/contacts?email=", "email"],
          ["/admin/contacts?cursor=abc", "cursor"]
        ]
        for (const [path, parameter] of cases) {
          const res = yield* adminCall(key, "GET", path)
          assert.strictEqual(res.status, 400, path)
          assert.strictEqual(res.text, invalid(parameter), path)
          assert.isNull(res.headers.get("ratelimit"), path)
        }
        // A form with a well-formed query but an unknown id: 404 after the query.
        assert.strictEqual((yield* adminCall(key, "GET", "/admin/forms/nope/submissions?since=2027-01-01")).status, 404)
        assert.strictEqual((yield* adminCall(key, "GET", "/admin/forms/nope/export?status=nope")).text, invalid("status"))
      }))

    it.effect("erasure: nothing of the values left in any table; key reusable, unique value claimable again; audited", () =>
      Effect.gen(function*() {
        const { key } = yield* keyOf("org-t")
        const marker = `zq${unique()}`
        const email = `${marker}@Example.org`
        const idemKey = `erase-${marker}`
        const id = yield* submit(openForm, idemKey, { email, shirt: "M" })
        // Wait for the handlers: the contact (the email, lower-cased) and the tags are written by then.
        yield* eventually(Effect.map(adminCall(key, "GET", `/admin/submissions/${id}`), data), (s) => s["contact_id"] !== null)
        const sql = yield* SqlClient.SqlClient
        const before = yield* tablesContaining(marker)
        assert.includeMembers(before.found, ["submissions", "contacts", "outbox"])
        const erased = yield* adminCall(key, "DELETE", `/admin/submissions/${id}`)
        assert.strictEqual(erased.status, 204, erased.text)
        assert.strictEqual(erased.text, "")
        const after = yield* tablesContaining(marker)
        assert.deepStrictEqual(after.found, [], `tables still holding the value: ${after.found.join(", ")}`)
        assert.isAbove(after.tables.length, 10)
        assert.strictEqual((yield* adminCall(key, "GET", `/admin/submissions/${id}`)).status, 404)
        assert.strictEqual((yield* adminCall(key, "DELETE", `/admin/submissions/${id}`)).status, 404)
        const events = yield* sql<{ readonly type: string; readonly payload: Record<string, unknown> }>`
          SELECT type, payload FROM outbox WHERE payload->>'submission_id' = ${id} ORDER BY seq`
        assert.deepStrictEqual(events.map((e) => e.type), ["submission.submitted", "submission.erased"])
        assert.deepStrictEqual(events[0]!.payload, { submission_id: id, schema_id: "fs-open", organisation_id: "org-t", event_id: "ev-t", erased: true })
        assert.deepStrictEqual(events[1]!.payload, { submission_id: id, schema_id: "fs-open", organisation_id: "org-t" })
        const audit = list(yield* adminCall(key, "GET", "/admin/audit-log?limit=200"))
        assert.isTrue(audit.some((e) => e["action"] === "submission.erased" && e["resource_id"] === id && e["resource_type"] === "submission"))
        // The idempotency key starts a new draft, and the unique email is free again.
        const again = yield* call(`${openForm}/submissions`, { method: "POST", body: { idempotency_key: idemKey } })
        assert.strictEqual(again.status, 201, again.text)
        const resubmitted = yield* call(`${openForm}/submissions/${String(dataOf(again)["id"])}/submit`, { method: "POST", body: { values: { email } } })
        assert.strictEqual(resubmitted.status, 200, resubmitted.text)
      }))

    it.effect("erasing a contact erases every submission linked to it; contacts left keep recomputed tags", () =>
      Effect.gen(function*() {
        const { key } = yield* keyOf("org-t")
        const run = unique()
        const email = `pair.${run}@example.org`
        const a = yield* submit(contactForm, `pair-a-${run}`, { email, interest: "music" })
        const b = yield* submit(contactForm, `pair-b-${run}`, { email: email.toUpperCase(), interest: "food" })
        const found = yield* eventually(
          Effect.map(adminCall(key, "GET", `/admin/contacts?email=${email}`), list),
          (rows) => rows.length === 1 && (rows[0]!["submission_ids"] as ReadonlyArray<string>).length === 2 &&
            (rows[0]!["tags"] as ReadonlyArray<string>).length === 3
        )
        const contact = found[0]!
        assert.deepStrictEqual(contact["tags"], ["contact", "foodie", "music-fan"])
        // One erased: the contact stays with the other's tags.
        assert.strictEqual((yield* adminCall(key, "DELETE", `/admin/submissions/${b}`)).status, 204)
        const left = list(yield* adminCall(key, "GET", `/admin/contacts?email=${email}`))
        assert.deepStrictEqual(left[0]!["tags"], ["contact", "music-fan"])
        assert.deepStrictEqual(left[0]!["submission_ids"], [a])
        const c = yield* submit(contactForm, `pair-c-${run}`, { email })
        yield* eventually(Effect.map(adminCall(key, "GET", `/admin/contacts?email=${email}`), list),
          (rows) => (rows[0]?.["submission_ids"] as ReadonlyArray<string> | undefined)?.length === 2)
        const erased = yield* adminCall(key, "DELETE", `/admin/contacts/${String(contact["id"])}`)
        assert.strictEqual(erased.status, 204, erased.text)
        for (const id of [a, c]) assert.strictEqual((yield* adminCall(key, "GET", `/admin/submissions/${id}`)).status, 404)
        assert.deepStrictEqual(list(yield* adminCall(key, "GET", `/admin/contacts?email=${email}`)), [])
        assert.strictEqual((yield* adminCall(key, "DELETE", `/admin/contacts/${String(contact["id"])}`)).status, 404)
        assert.deepStrictEqual((yield* tablesContaining(`pair.${run}`)).found, [])
        const audit = list(yield* adminCall(key, "GET", "/admin/audit-log?limit=200"))
        assert.isTrue(audit.some((e) => e["action"] === "contact.erased" && e["resource_id"] === contact["id"]))
      }))

    it.effect("outbox: listed by state without payloads; a dead event retried once (409 EVENT_NOT_DEAD after), audited", () =>
      Effect.gen(function*() {
        const { key } = yield* keyOf("org-t")
        const { key: other } = yield* keyOf("org-u")
        const sql = yield* SqlClient.SqlClient
        const [dead] = yield* sql<{ readonly id: string }>`INSERT INTO outbox (type, payload, attempts, last_error, available_at, created_at, dead_at)
          VALUES ('submission.erased', '{"submission_id": "00000000-0000-4000-8000-00000000dead", "organisation_id": "org-t"}'::jsonb,
                  10, 'handler: Error: boom', now(), date_trunc('milliseconds', now()), now())
          RETURNING id::text AS id`
        const id = dead!.id
        const listed = list(yield* adminCall(key, "GET", "/admin/outbox?state=dead"))
        const entry = listed.find((e) => e["id"] === id)
        assert.deepStrictEqual(Object.keys(entry ?? {}).sort(), ["attempts", "available_at", "created_at", "dead_at", "id", "last_error", "type"])
        assert.strictEqual(entry?.["last_error"], "handler: Error: boom")
        assert.isFalse(list(yield* adminCall(other, "GET", "/admin/outbox?state=dead")).some((e) => e["id"] === id))
        assert.strictEqual((yield* adminCall(other, "POST", `/admin/outbox/${id}/retry`)).text, envelope("OUTBOX_EVENT_NOT_FOUND", "No outbox event has this id."))
        const retried = yield* adminCall(key, "POST", `/admin/outbox/${id}/retry`)
        assert.strictEqual(retried.status, 200, retried.text)
        assert.strictEqual(data(retried)["dead_at"], null)
        // Delivered by the dispatcher (no handler takes `submission.erased`).
        yield* eventually(Effect.map(adminCall(key, "GET", "/admin/outbox?state=delivered&limit=200"), list), (rows) => rows.some((e) => e["id"] === id))
        const again = yield* adminCall(key, "POST", `/admin/outbox/${id}/retry`)
        assert.strictEqual(again.text, envelope("EVENT_NOT_DEAD", "Only a dead event can be retried."))
        assert.strictEqual(again.status, 409)
        const audit = list(yield* adminCall(key, "GET", "/admin/audit-log?limit=200"))
        assert.isTrue(audit.some((e) => e["action"] === "outbox_event.retried" && e["resource_id"] === id))
      }))
  })
}

reportSkippedPostgres("Submissions out")
