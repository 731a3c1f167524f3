/**
 * The organiser's messages and the `recipient` policy on the whole server, PGlite and PostgreSQL: the list (newest
 * first, filters, 400 on another status), one message with its body, a retry (202, audit `message.retried`, 409 for
 * one that is neither failed nor held, 404 for another organisation's), erasure deleting a submission's messages;
 * at most MAIL_PER_RECIPIENT_PER_DAY messages to one visitor-typed address per organisation, whatever its case,
 * the rest recorded failed with "recipient limit" (notices not counted), also under submits in parallel.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { backends, reportSkippedPostgres } from "./backends.js"
import { adminCall, data, json, list, newOrganisation } from "./adminSupport.js"
import { call, liveOptions, testServer } from "./harness.js"

const definition = {
  name: "Crew",
  type: "registration",
  event_id: null,
  status: "published",
  fields: [
    { slug: "email", label: "Email", type: "email", position: 1 },
    { slug: "name", label: "Name", type: "text", position: 2 }
  ],
  messages: {
    confirmation: { to_field: "email", subject: "Welcome {{name}}", body: "Hello {{name}}" },
    notify: { to: ["crew@example.org"] }
  }
}

const newForm = Effect.gen(function*() {
  const { key } = yield* newOrganisation
  const created = yield* adminCall(key, "POST", "/admin/forms", definition)
  assert.strictEqual(created.status, 201, created.text)
  return { key, base: `/public/forms/${String(data(created)["public_token"])}/submissions` }
})

const submit = (base: string, values: Record<string, unknown>) =>
  Effect.gen(function*() {
    const draft = String(data(yield* call(base, { method: "POST", body: { idempotency_key: `msg-admin-${Math.random()}` } }))["id"])
    const ok = yield* call(`${base}/${draft}/submit`, { method: "POST", body: { values } })
    assert.strictEqual(ok.status, 200, ok.text)
    return draft
  })

const summaryMembers = [
  "attempts", "created_at", "engagement_id", "id", "kind", "last_error", "sent_at", "status", "subject", "submission_id", "to"
]

for (const backend of backends) {
  layer(testServer(backend, { SUBMIT_RATE_LIMIT_PER_HOUR: "1000", MAIL_PER_RECIPIENT_PER_DAY: "3" }), liveOptions)(
    `organiser messages (${backend})`,
    (it) => {
      it.effect("list newest first with filters, one with its body, retry of a held one, 409 and 404, erasure", () =>
        Effect.gen(function*() {
          const { key, base } = yield* newForm
          const first = yield* submit(base, { email: "ada@example.org", name: "Ada" })
          const second = yield* submit(base, { email: "bob@example.org", name: "Bob" })
          const all = yield* adminCall(key, "GET", "/admin/messages")
          assert.strictEqual(all.status, 200, all.text)
          const items = list(all)
          assert.deepStrictEqual(items.map((m) => [m["kind"], m["to"]]).sort(), [
            ["confirmation", "ada@example.org"], ["confirmation", "bob@example.org"],
            ["notification", "crew@example.org"], ["notification", "crew@example.org"]
          ])
          for (const m of items) {
            assert.deepStrictEqual(Object.keys(m).sort(), summaryMembers)
            assert.strictEqual(m["status"], "held")
            assert.strictEqual(m["attempts"], 0)
            assert.isNull(m["sent_at"])
          }
          // Newest first: the second submit's messages before the first's.
          assert.deepStrictEqual(items.map((m) => m["submission_id"]), [second, second, first, first])
          const paged = yield* adminCall(key, "GET", "/admin/messages?limit=3")
          assert.strictEqual(list(paged).length, 3)
          const rest = yield* adminCall(key, "GET", `/admin/messages?limit=3&cursor=${String(json(paged)["next_cursor"])}`)
          assert.deepStrictEqual(list(rest).map((m) => m["id"]), [items[3]?.["id"]])
          assert.isNull(json(rest)["next_cursor"])
          const ofFirst = list(yield* adminCall(key, "GET", `/admin/messages?submission_id=${first}&status=held`))
          assert.deepStrictEqual(ofFirst.map((m) => m["kind"]).sort(), ["confirmation", "notification"])
          assert.deepStrictEqual(list(yield* adminCall(key, "GET", "/admin/messages?status=sent")), [])
          for (const query of ["status=queued", "status=held&status=sent", "submission_id=nope", "limit=0"]) {
            const bad = yield* adminCall(key, "GET", `/admin/messages?${query}`)
            assert.strictEqual(bad.status, 400, query)
            assert.strictEqual((json(bad)["error"] as Record<string, unknown>)["code"], "INVALID_QUERY")
          }

          const confirmation = ofFirst.find((m) => m["kind"] === "confirmation") as Record<string, unknown>
          const id = String(confirmation["id"])
          const one = yield* adminCall(key, "GET", `/admin/messages/${id}`)
          assert.strictEqual(one.status, 200, one.text)
          assert.deepStrictEqual(data(one), { ...confirmation, body: "Hello Ada" })

          // Another organisation sees none of it.
          const other = yield* newOrganisation
          assert.deepStrictEqual(list(yield* adminCall(other.key, "GET", "/admin/messages")), [])
          for (const [method, path] of [["GET", `/admin/messages/${id}`], ["POST", `/admin/messages/${id}/retry`], ["GET", "/admin/messages/nope"]] as const) {
            const res = yield* adminCall(other.key, method, path)
            assert.strictEqual(res.status, 404, `${method} ${path}`)
            assert.strictEqual((json(res)["error"] as Record<string, unknown>)["code"], "MESSAGE_NOT_FOUND")
          }

          // A held one is queued again (held again: no mail server), with its audit entry.
          const retried = yield* adminCall(key, "POST", `/admin/messages/${id}/retry`)
          assert.strictEqual(retried.status, 202, retried.text)
          assert.deepStrictEqual(data(retried), confirmation)
          const audit = list(yield* adminCall(key, "GET", "/admin/audit-log"))
          assert.deepStrictEqual(
            audit.filter((e) => e["action"] === "message.retried").map((e) => [e["resource_type"], e["resource_id"]]),
            [["message", id]]
          )
          // Neither failed nor held: 409, nothing changed.
          const sql = yield* SqlClient.SqlClient
          yield* sql`UPDATE messages SET status = 'sent', sent_at = now() WHERE id = ${id}::uuid`
          const refused = yield* adminCall(key, "POST", `/admin/messages/${id}/retry`)
          assert.strictEqual(refused.status, 409, refused.text)
          assert.strictEqual((json(refused)["error"] as Record<string, unknown>)["code"], "MESSAGE_NOT_RETRYABLE")
          assert.strictEqual(data(yield* adminCall(key, "GET", `/admin/messages/${id}`))["status"], "sent")
          // A failed one becomes held again, with a new round.
          yield* sql`UPDATE messages SET status = 'failed', attempts = 4, last_error = '550 no' WHERE id = ${id}::uuid`
          const again = yield* adminCall(key, "POST", `/admin/messages/${id}/retry`)
          assert.strictEqual(again.status, 202, again.text)
          assert.strictEqual(data(again)["status"], "held")
          const [round] = yield* sql<{ readonly round_start: number }>`SELECT round_start FROM messages WHERE id = ${id}::uuid`
          assert.strictEqual(round?.round_start, 4)

          // Erasure deletes the submission's messages; the other submission's stay.
          assert.strictEqual((yield* adminCall(key, "DELETE", `/admin/submissions/${first}`)).status, 204)
          assert.deepStrictEqual(list(yield* adminCall(key, "GET", `/admin/messages?submission_id=${first}`)), [])
          assert.strictEqual((yield* adminCall(key, "GET", `/admin/messages/${id}`)).status, 404)
          assert.strictEqual(list(yield* adminCall(key, "GET", `/admin/messages?submission_id=${second}`)).length, 2)
        }))

      it.effect("recipient: 3 a day to one visitor-typed address (any case) per organisation; the rest failed; notices not counted", () =>
        Effect.gen(function*() {
          const { key, base } = yield* newForm
          const ids: Array<string> = []
          for (const email of ["Eve@Example.org", "eve@example.org", "EVE@example.org", "eve@EXAMPLE.org", "eve@example.org"]) {
            ids.push(yield* submit(base, { email, name: "Eve" }))
          }
          const confirmations = list(yield* adminCall(key, "GET", "/admin/messages?limit=200"))
            .filter((m) => m["kind"] === "confirmation")
            .reverse()
          assert.deepStrictEqual(confirmations.map((m) => [m["status"], m["last_error"]]), [
            ["held", null], ["held", null], ["held", null], ["failed", "recipient limit"], ["failed", "recipient limit"]
          ])
          // Every notice was recorded: an organiser's address is not counted.
          assert.strictEqual(list(yield* adminCall(key, "GET", "/admin/messages?status=held&limit=200"))
            .filter((m) => m["kind"] === "notification").length, 5)
          // Another address, and the same address for another organisation, have budgets of their own.
          const other = yield* submit(base, { email: "frank@example.org" })
          assert.strictEqual(list(yield* adminCall(key, "GET", `/admin/messages?submission_id=${other}`)).find((m) => m["kind"] === "confirmation")?.["status"], "held")
          const elsewhere = yield* newForm
          const there = yield* submit(elsewhere.base, { email: "eve@example.org" })
          assert.strictEqual(list(yield* adminCall(elsewhere.key, "GET", `/admin/messages?submission_id=${there}`)).find((m) => m["kind"] === "confirmation")?.["status"], "held")
        }))

      it.effect("recipient: 12 submits in parallel to one address record exactly 3 messages to be sent", () =>
        Effect.gen(function*() {
          const { key, base } = yield* newForm
          const drafts = yield* Effect.forEach(Array.from({ length: 12 }, (_, i) => i), (i) =>
            Effect.map(call(base, { method: "POST", body: { idempotency_key: `parallel-${i}-${Math.random()}` } }), (r) => String(data(r)["id"])))
          yield* Effect.forEach(drafts, (draft) =>
            Effect.map(call(`${base}/${draft}/submit`, { method: "POST", body: { values: { email: "same@example.org" } } }), (r) =>
              assert.strictEqual(r.status, 200, r.text)), { concurrency: "unbounded" })
          const statuses = list(yield* adminCall(key, "GET", "/admin/messages?limit=200"))
            .filter((m) => m["kind"] === "confirmation").map((m) => String(m["status"]))
          assert.strictEqual(statuses.length, 12)
          assert.strictEqual(statuses.filter((s) => s === "held").length, 3)
          assert.strictEqual(statuses.filter((s) => s === "failed").length, 9)
        }))
    }
  )
}
reportSkippedPostgres("organiser messages")
