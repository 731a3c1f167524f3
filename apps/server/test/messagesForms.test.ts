/**
 * Messages on the whole server, PGlite and PostgreSQL: a form's `messages` through POST, GET and PUT; every
 * problem at its path; a submit records its confirmation (filled from the submitted values) held, since no mail
 * server is configured, and nothing when the address field holds no address; erasure deletes them.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { backends, reportSkippedPostgres } from "./backends.js"
import { bearer, data, json, newOrganisation } from "./adminSupport.js"
import { call, liveOptions, type RawResponse, testServer } from "./harness.js"

const send = (key: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  call(path, { method, headers: { ...bearer(key), ...headers }, ...(body === undefined ? {} : { body }) })

const messages = {
  confirmation: { to_field: "email", subject: "Welcome {{name}}", body: "Hello {{name}},\n{{answers}}" },
  notify: { to: ["crew@example.org"] }
}

const definition = (extra: Record<string, unknown> = {}) => ({
  name: "Crew",
  type: "volunteer",
  event_id: null,
  status: "published",
  fields: [
    { slug: "email", label: "Email", type: "email", position: 1 },
    { slug: "name", label: "Name", type: "text", position: 2 }
  ],
  messages,
  ...extra
})

const rulesOf = (res: RawResponse) =>
  Object.fromEntries(Object.entries((json(res)["error"] as { fields: Record<string, ReadonlyArray<{ rule: string }>> }).fields)
    .map(([k, v]) => [k, v.map((e) => e.rule)]))

for (const backend of backends) {
  layer(testServer(backend), liveOptions)(`messages of forms (${backend})`, (it) => {
    it.effect("messages round-trip through POST, GET and PUT; a PUT without them drops them", () =>
      Effect.gen(function*() {
        const { key } = yield* newOrganisation
        const created = yield* send(key, "POST", "/admin/forms", definition())
        assert.strictEqual(created.status, 201, created.text)
        const form = data(created)
        assert.deepStrictEqual(form["messages"], messages)
        const id = String(form["id"])
        const put = yield* send(key, "PUT", `/admin/forms/${id}`, form, { "if-match": '"1"' })
        assert.strictEqual(put.status, 200, put.text)
        assert.deepStrictEqual(data(yield* send(key, "GET", `/admin/forms/${id}`))["messages"], messages)
        const { messages: _, ...without } = data(put)
        const dropped = yield* send(key, "PUT", `/admin/forms/${id}`, without, { "if-match": "*" })
        assert.strictEqual(dropped.status, 200, dropped.text)
        assert.isFalse("messages" in data(dropped))
      }))

    it.effect("every problem of the messages at its dotted path; nothing written", () =>
      Effect.gen(function*() {
        const { key } = yield* newOrganisation
        const res = yield* send(key, "POST", "/admin/forms", definition({
          type: "registration",
          messages: {
            confirmation: { to_field: "name", subject: "Hi\nBcc: x@y.org", body: "{{ghost}}" },
            notify: { to: ["not an address"] },
            reminders: [{ hours_before: 721 }]
          }
        }))
        assert.strictEqual(res.status, 422, res.text)
        assert.deepStrictEqual(rulesOf(res), {
          "messages.confirmation.to_field": ["in"],
          "messages.confirmation.subject": ["invalid"],
          "messages.confirmation.body": ["in"],
          "messages.notify.to.0": ["email"],
          "messages.reminders": ["invalid"],
          "messages.reminders.0.hours_before": ["max"]
        })
      }))

    it.effect("a submit records its confirmation and notice held (no SMTP_URL); no address, no confirmation", () =>
      Effect.gen(function*() {
        const { key } = yield* newOrganisation
        const form = data(yield* send(key, "POST", "/admin/forms", definition()))
        const base = `/public/forms/${String(form["public_token"])}/submissions`
        const submit = (values: Record<string, unknown>) =>
          Effect.gen(function*() {
            const draft = String(data(yield* call(base, { method: "POST", body: { idempotency_key: `msg-key-${Math.random()}` } }))["id"])
            const ok = yield* call(`${base}/${draft}/submit`, { method: "POST", body: { values } })
            assert.strictEqual(ok.status, 200, ok.text)
            return draft
          })
        const sql = yield* SqlClient.SqlClient
        const rowsOf = (id: string) =>
          sql<{ readonly kind: string; readonly to_address: string; readonly subject: string; readonly body: string; readonly status: string }>`
            SELECT kind, to_address, subject, body, status FROM messages WHERE submission_id = ${id}::uuid ORDER BY seq`
        const first = yield* submit({ email: "ada@example.org", name: "Ada\r\nBcc: x@y.org" })
        const rows = yield* rowsOf(first)
        assert.deepStrictEqual(rows.map((r) => [r.kind, r.to_address, r.status]), [
          ["confirmation", "ada@example.org", "held"],
          ["notification", "crew@example.org", "held"]
        ])
        assert.strictEqual(rows[0]?.subject, "Welcome Ada  Bcc: x@y.org")
        assert.strictEqual(rows[0]?.body, "Hello Ada\r\nBcc: x@y.org,\nEmail: ada@example.org\nName: Ada\r\nBcc: x@y.org")
        const second = yield* submit({ name: "Bob" })
        assert.deepStrictEqual((yield* rowsOf(second)).map((r) => r.kind), ["notification"])
        // Erasure deletes a submission's messages with it.
        const erased = yield* send(key, "DELETE", `/admin/submissions/${first}`)
        assert.strictEqual(erased.status, 204, erased.text)
        assert.deepStrictEqual(yield* rowsOf(first), [])
        assert.strictEqual((yield* rowsOf(second)).length, 1)
      }))
  })
}
reportSkippedPostgres("messages of forms")
