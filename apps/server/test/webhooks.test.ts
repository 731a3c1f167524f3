import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { Webhook } from "standardwebhooks"
import { verifyWebhook } from "@forms/adapters-http"
import { backends, reportSkippedPostgres } from "./backends.js"
import { adminCall, data, keyOf, list, newOrganisation } from "./adminSupport.js"
import { call, dataOf, eventually, liveOptions, testServer } from "./harness.js"
import { type Receiver, type Received, receiverScoped } from "./webhookReceiver.js"

const contactForm = "/public/forms/test-contact-token-0001"
const portal = "/p/artist/test-portal-token-0001"
const env = { WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", WEBHOOK_RETRY_SCHEDULE: "1,1", WEBHOOK_TIMEOUT_MS: "1500" }
let counter = 0

const submitContact = (values: Record<string, unknown>) =>
  Effect.gen(function*() {
    const key = `hooks-${Date.now()}-${counter++}-0123456789abcdef`
    const created = yield* call(`${contactForm}/submissions`, { method: "POST", body: { idempotency_key: key } })
    const id = String(dataOf(created)["id"])
    const submitted = yield* call(`${contactForm}/submissions/${id}/submit`, { method: "POST", body: { values } })
    assert.strictEqual(submitted.status, 200, submitted.text)
    return id
  })

const createHook = (key: string, url: string, eventTypes: ReadonlyArray<string> = ["submission.submitted"]) =>
  Effect.gen(function*() {
    const res = yield* adminCall(key, "POST", "/admin/webhooks", { url, event_types: eventTypes })
    assert.strictEqual(res.status, 201, res.text)
    const body = data(res)
    return { id: String(body["id"]), secret: String(body["secret"]) }
  })

const deliveries = (key: string, hook: string) =>
  Effect.map(adminCall(key, "GET", `/admin/webhooks/${hook}/deliveries`), list)

/** Verified by the `standardwebhooks` package (the spec's own library), which also checks the timestamp. */
const verified = (secret: string, message: Received) =>
  new Webhook(secret).verify(message.body, message.headers) as { type: string; timestamp: string; data: Record<string, unknown> }

const received = (receiver: Receiver, n: number, timeoutMs = 15_000) =>
  eventually(Effect.sync(() => receiver.received.length), (count) => count >= n, timeoutMs)

for (const backend of backends) {
  layer(testServer(backend, env, { webhookEngine: { pollIntervalMs: 100 } }), liveOptions)(`webhooks (${backend})`, (it) => {
    it.effect("endpoints: created with a whsec_ secret shown once, listed, patched, scoped, deleted, audited", () =>
      Effect.gen(function*() {
        const a = yield* keyOf("org-t")
        const b = yield* keyOf("org-u")
        const created = yield* adminCall(a.key, "POST", "/admin/webhooks", {
          url: "https://hooks.example.com/in", event_types: ["*"], description: "crm"
        })
        assert.strictEqual(created.status, 201, created.text)
        assert.strictEqual(created.headers.get("ratelimit-policy"), "\"admin\";q=600;w=60")
        const anonymous = yield* call("/admin/webhooks")
        assert.strictEqual(anonymous.status, 401)
        assert.strictEqual(anonymous.headers.get("www-authenticate"), "Bearer")
        const hook = data(created)
        assert.match(String(hook["secret"]), /^whsec_[A-Za-z0-9+/]{43}=$/)
        assert.deepStrictEqual(Object.keys(hook).sort(),
          ["created_at", "description", "disabled_reason", "enabled", "event_types", "id", "secret", "url"])
        const id = String(hook["id"])
        const got = yield* adminCall(a.key, "GET", `/admin/webhooks/${id}`)
        assert.strictEqual(got.status, 200)
        assert.notProperty(data(got), "secret")
        assert.isTrue(list(yield* adminCall(a.key, "GET", "/admin/webhooks")).some((h) => h["id"] === id))
        const foreign = yield* adminCall(b.key, "GET", `/admin/webhooks/${id}`)
        assert.strictEqual(foreign.status, 404)
        assert.include(foreign.text, "WEBHOOK_NOT_FOUND")
        const patched = yield* adminCall(a.key, "PATCH", `/admin/webhooks/${id}`, { enabled: false, event_types: ["section.submitted"] })
        assert.strictEqual(patched.status, 200, patched.text)
        assert.include(data(patched), { enabled: false, disabled_reason: "disabled by the organiser" })
        const bad = yield* adminCall(a.key, "POST", "/admin/webhooks", {
          url: "https://user:pw@hooks.example.com/", event_types: ["nope", "submission.submitted"], extra: 1
        })
        assert.strictEqual(bad.status, 422)
        const fields = (JSON.parse(bad.text) as { error: { fields: Record<string, unknown> } }).error.fields
        assert.deepStrictEqual(Object.keys(fields).sort(), ["event_types.0", "extra", "url"])
        const rotated = yield* adminCall(a.key, "POST", `/admin/webhooks/${id}/rotate-secret`)
        assert.strictEqual(rotated.status, 200)
        assert.notStrictEqual(data(rotated)["secret"], hook["secret"])
        assert.strictEqual((yield* adminCall(a.key, "DELETE", `/admin/webhooks/${id}`)).status, 204)
        assert.strictEqual((yield* adminCall(a.key, "GET", `/admin/webhooks/${id}`)).status, 404)
        const audit = list(yield* adminCall(a.key, "GET", "/admin/audit-log"))
          .filter((e) => e["resource_id"] === id).map((e) => e["action"])
        assert.deepStrictEqual(audit, ["webhook.deleted", "webhook.secret_rotated", "webhook.updated", "webhook.created"])
        const badQuery = yield* adminCall(a.key, "GET", `/admin/webhooks/${id}/deliveries?status=lost`)
        assert.strictEqual(badQuery.status, 400)
        assert.include(badQuery.text, "INVALID_QUERY")
        const noDelivery = yield* adminCall(a.key, "POST", `/admin/webhooks/${id}/deliveries/nope/retry`)
        assert.include(noDelivery.text, "WEBHOOK_NOT_FOUND")
        const kept = yield* createHook(a.key, "https://hooks.example.com/kept")
        const unknownDelivery = yield* adminCall(a.key, "POST", `/admin/webhooks/${kept.id}/deliveries/nope/retry`)
        assert.strictEqual(unknownDelivery.status, 404)
        assert.include(unknownDelivery.text, "DELIVERY_NOT_FOUND")
        const unknownId = yield* adminCall(a.key, "PATCH", `/admin/webhooks/${kept.id}`, { enabled: "yes", url: null })
        assert.strictEqual(unknownId.status, 422)
        yield* adminCall(a.key, "DELETE", `/admin/webhooks/${kept.id}`)
      }))

    it.effect("a submission reaches the receiver signed per Standard Webhooks, and its delivery lists the attempt", () =>
      Effect.scoped(Effect.gen(function*() {
        const receiver = yield* receiverScoped()
        const a = yield* keyOf("org-t")
        const hook = yield* createHook(a.key, receiver.url)
        const submission = yield* submitContact({ email: "hook@example.org", interest: "music" })
        yield* received(receiver, 1)
        const message = receiver.received[0] as Received
        const body = verified(hook.secret, message)
        assert.strictEqual(body.type, "submission.submitted")
        assert.include(body.data, { submission_id: submission, schema_id: "fs-contact", organisation_id: "org-t", form_id: "fs-contact" })
        assert.deepStrictEqual(body.data["values"], { email: "hook@example.org", interest: "music" })
        assert.strictEqual(message.headers["content-type"], "application/json")
        assert.isTrue(verifyWebhook(hook.secret, message.headers, message.body).ok)
        assert.isFalse(verifyWebhook(hook.secret, message.headers, message.body + " ").ok)
        const [delivery] = yield* eventually(deliveries(a.key, hook.id), (l) => l[0]?.["status"] === "delivered")
        assert.strictEqual(delivery?.["event_id"], message.headers["webhook-id"])
        const attempts = delivery?.["attempts"] as ReadonlyArray<Record<string, unknown>>
        assert.strictEqual(attempts.length, 1)
        assert.include(attempts[0], { status_code: 200, error: null })
        yield* adminCall(a.key, "DELETE", `/admin/webhooks/${hook.id}`)
      })))

    it.effect("form logic: the value of a field inactive at submit is not in the webhook body", () =>
      Effect.scoped(Effect.gen(function*() {
        const receiver = yield* receiverScoped()
        const a = yield* newOrganisation
        const hook = yield* createHook(a.key, receiver.url)
        const created = yield* adminCall(a.key, "POST", "/admin/forms", {
          name: "Logic", type: "registration", event_id: null, status: "published",
          fields: [
            { slug: "email", label: "Email", type: "email", position: 1 },
            { slug: "drives", label: "Do you drive?", type: "boolean", position: 2 },
            { slug: "plate", label: "Plate", type: "text", is_required: true, position: 3, visible_if: { var: "drives" } }
          ]
        })
        assert.strictEqual(created.status, 201, created.text)
        const base = `/public/forms/${String(data(created)["public_token"])}/submissions`
        const draft = yield* call(base, { method: "POST", body: { idempotency_key: `hooks-logic-${Date.now()}-0123456789` } })
        const submitted = yield* call(`${base}/${String(dataOf(draft)["id"])}/submit`, {
          method: "POST", body: { values: { email: "a@b.nl", drives: "0", plate: "XX-1" } }
        })
        assert.strictEqual(submitted.status, 200, submitted.text)
        yield* received(receiver, 1)
        const body = verified(hook.secret, receiver.received[0] as Received)
        assert.deepStrictEqual(body.data["values"], { email: "a@b.nl", drives: "0" })
        yield* adminCall(a.key, "DELETE", `/admin/webhooks/${hook.id}`)
      })))

    it.effect("500, 500, 200: three attempts recorded, the same webhook-id on each; after the schedule: failed", () =>
      Effect.scoped(Effect.gen(function*() {
        const receiver = yield* receiverScoped()
        receiver.script.push({ status: 500 }, { status: 500 })
        const a = yield* keyOf("org-t")
        const hook = yield* createHook(a.key, receiver.url)
        yield* submitContact({ email: "retry@example.org" })
        yield* received(receiver, 3)
        const ids = new Set(receiver.received.map((r) => r.headers["webhook-id"]))
        assert.strictEqual(ids.size, 1)
        for (const r of receiver.received) verified(hook.secret, r)
        const [delivery] = yield* eventually(deliveries(a.key, hook.id), (l) => l[0]?.["status"] === "delivered")
        const codes = (delivery?.["attempts"] as ReadonlyArray<Record<string, unknown>>).map((x) => x["status_code"])
        assert.deepStrictEqual(codes, [500, 500, 200])
        // Retry of a delivered one is a replay: the same id again, its attempts continue the list.
        const retried = yield* adminCall(a.key, "POST", `/admin/webhooks/${hook.id}/deliveries/${String(delivery?.["id"])}/retry`)
        assert.strictEqual(retried.status, 202, retried.text)
        yield* received(receiver, 4)
        assert.strictEqual(receiver.received[3]?.headers["webhook-id"], delivery?.["event_id"])
        // Every attempt fails: after 1 + 2 attempts the delivery is failed.
        receiver.script.push({ status: 503, headers: { "retry-after": "1" } }, { status: 500 }, { status: 500 })
        yield* submitContact({ email: "fail@example.org" })
        const failed = yield* eventually(deliveries(a.key, hook.id), (l) => l[0]?.["status"] === "failed")
        assert.strictEqual((failed[0]?.["attempts"] as ReadonlyArray<unknown>).length, 3)
        yield* adminCall(a.key, "DELETE", `/admin/webhooks/${hook.id}`)
      })))

    it.effect("receiver down, then up: delivered after it returns with the same webhook-id; a hang and a 3xx are failures", () =>
      Effect.scoped(Effect.gen(function*() {
        const receiver = yield* receiverScoped(false)
        const a = yield* keyOf("org-t")
        const hook = yield* createHook(a.key, receiver.url)
        yield* submitContact({ email: "down@example.org" })
        const [pending] = yield* eventually(deliveries(a.key, hook.id), (l) => (l[0]?.["attempts"] as ReadonlyArray<unknown> | undefined)?.length === 1)
        const first = (pending?.["attempts"] as ReadonlyArray<Record<string, unknown>>)[0]
        assert.include(String(first?.["error"]), "ECONNREFUSED")
        assert.isNull(first?.["status_code"])
        receiver.script.push("hang", { status: 302, headers: { location: "http://127.0.0.1:1/elsewhere" } })
        yield* Effect.promise(() => receiver.start())
        // Attempt 2 hangs past the timeout, attempt 3 gets a redirect (not followed): failed.
        const [done] = yield* eventually(deliveries(a.key, hook.id), (l) => l[0]?.["status"] === "failed", 20_000)
        const attempts = done?.["attempts"] as ReadonlyArray<Record<string, unknown>>
        assert.match(String(attempts[1]?.["error"]), /timed out after 1500 ms/)
        assert.include(attempts[2], { status_code: 302 })
        assert.strictEqual(receiver.received.length, 2)
        // A retry makes it due again: delivered with the same id.
        yield* adminCall(a.key, "POST", `/admin/webhooks/${hook.id}/deliveries/${String(done?.["id"])}/retry`)
        yield* received(receiver, 3)
        const ids = new Set(receiver.received.map((r) => r.headers["webhook-id"]))
        assert.deepStrictEqual([...ids], [String(done?.["event_id"])])
        verified(hook.secret, receiver.received[2] as Received)
        yield* adminCall(a.key, "DELETE", `/admin/webhooks/${hook.id}`)
      })))

    it.effect("410 disables the endpoint; events queue while disabled and go out once it is enabled", () =>
      Effect.scoped(Effect.gen(function*() {
        const receiver = yield* receiverScoped()
        receiver.script.push({ status: 410 })
        const a = yield* keyOf("org-t")
        const hook = yield* createHook(a.key, receiver.url)
        yield* submitContact({ email: "gone@example.org" })
        yield* eventually(adminCall(a.key, "GET", `/admin/webhooks/${hook.id}`), (r) => data(r)["enabled"] === false)
        const endpoint = data(yield* adminCall(a.key, "GET", `/admin/webhooks/${hook.id}`))
        assert.strictEqual(endpoint["disabled_reason"], "the endpoint answered 410 Gone")
        assert.strictEqual((yield* deliveries(a.key, hook.id))[0]?.["status"], "failed")
        yield* submitContact({ email: "queued@example.org" })
        yield* eventually(deliveries(a.key, hook.id), (l) => l.length === 2)
        yield* Effect.sleep("500 millis")
        assert.strictEqual(receiver.received.length, 1)
        assert.strictEqual((yield* deliveries(a.key, hook.id))[0]?.["status"], "pending")
        yield* adminCall(a.key, "PATCH", `/admin/webhooks/${hook.id}`, { enabled: true })
        yield* received(receiver, 2)
        assert.strictEqual(verified(hook.secret, receiver.received[1] as Received).data["values"] !== undefined, true)
        yield* adminCall(a.key, "DELETE", `/admin/webhooks/${hook.id}`)
      })))

    it.effect("after a rotation, messages verify with the new secret and with the old one; test messages and replays", () =>
      Effect.scoped(Effect.gen(function*() {
        const receiver = yield* receiverScoped()
        const a = yield* keyOf("org-t")
        const hook = yield* createHook(a.key, receiver.url)
        const rotated = data(yield* adminCall(a.key, "POST", `/admin/webhooks/${hook.id}/rotate-secret`))
        const test = yield* adminCall(a.key, "POST", `/admin/webhooks/${hook.id}/test`)
        assert.strictEqual(test.status, 202, test.text)
        yield* received(receiver, 1)
        const message = receiver.received[0] as Received
        assert.strictEqual(message.headers["webhook-id"], data(test)["event_id"])
        assert.deepStrictEqual(verified(String(rotated["secret"]), message), {
          type: "webhook.test", timestamp: verified(hook.secret, message).timestamp, data: { webhook_id: hook.id }
        })
        assert.strictEqual(message.headers["webhook-signature"]?.split(" ").length, 2)
        // Replay since a time: the endpoint's events again, with their ids.
        const since = new Date(Date.now() - 5).toISOString()
        yield* submitContact({ email: "replay@example.org" })
        yield* received(receiver, 2)
        const original = receiver.received[1]?.headers["webhook-id"]
        const replay = yield* adminCall(a.key, "POST", `/admin/webhooks/${hook.id}/replay`, { since })
        assert.strictEqual(replay.status, 202, replay.text)
        assert.deepStrictEqual(data(replay), { queued: 1 })
        yield* received(receiver, 3)
        assert.strictEqual(receiver.received[2]?.headers["webhook-id"], original)
        // Malformed, or a date that does not exist (Date.parse alone would roll 31 February over to March): 422.
        for (const bad of ["yesterday", "2026-02-31T00:00:00Z", "2027-04-31T12:00Z", "2027-01-01T24:00:00Z"]) {
          const badSince = yield* adminCall(a.key, "POST", `/admin/webhooks/${hook.id}/replay`, { since: bad })
          assert.strictEqual(badSince.status, 422, bad)
        }
        // Erased events are never sent: not replayed, and a pending delivery of one ends failed ("erased").
        const sql = yield* SqlClient.SqlClient
        yield* sql`UPDATE outbox SET payload = payload - 'values' || '{"erased": true}'::jsonb WHERE id = ${String(original)}::uuid`
        assert.deepStrictEqual(data(yield* adminCall(a.key, "POST", `/admin/webhooks/${hook.id}/replay`, { since })), { queued: 0 })
        const [last] = yield* deliveries(a.key, hook.id)
        yield* adminCall(a.key, "POST", `/admin/webhooks/${hook.id}/deliveries/${String(last?.["id"])}/retry`)
        const [erased] = yield* eventually(deliveries(a.key, hook.id), (l) => l[0]?.["status"] === "failed")
        assert.strictEqual((erased?.["attempts"] as ReadonlyArray<Record<string, unknown>>).at(-1)?.["error"], "erased")
        assert.strictEqual(receiver.received.length, 3)
        // So are events whose payload retention emptied (delivered over OUTBOX_RETENTION_DAYS ago): a replay skips
        // them, and a retried delivery of one ends failed with that reason, nothing sent.
        yield* submitContact({ email: "retained@example.org" })
        yield* received(receiver, 4)
        const old = receiver.received[3]?.headers["webhook-id"]
        yield* sql`UPDATE outbox SET payload = '{}'::jsonb WHERE id = ${String(old)}::uuid`
        assert.deepStrictEqual(data(yield* adminCall(a.key, "POST", `/admin/webhooks/${hook.id}/replay`, { since })), { queued: 0 })
        const emptied = (yield* deliveries(a.key, hook.id)).find((d) => d["event_id"] === old)
        yield* adminCall(a.key, "POST", `/admin/webhooks/${hook.id}/deliveries/${String(emptied?.["id"])}/retry`)
        const retried = yield* eventually(deliveries(a.key, hook.id), (l) => l.some((d) => d["event_id"] === old && d["status"] === "failed"))
        const attempts = retried.find((d) => d["event_id"] === old)?.["attempts"] as ReadonlyArray<Record<string, unknown>>
        assert.strictEqual(attempts.at(-1)?.["error"], "the event's payload was emptied by retention (OUTBOX_RETENTION_DAYS)")
        assert.strictEqual(receiver.received.length, 4)
        const audit = list(yield* adminCall(a.key, "GET", "/admin/audit-log")).map((e) => e["action"])
        assert.includeMembers(audit, ["webhook.replayed", "webhook_delivery.retried"])
        yield* adminCall(a.key, "DELETE", `/admin/webhooks/${hook.id}`)
      })))

    it.effect("section.submitted carries the organisation and its artist_advance form", () =>
      Effect.scoped(Effect.gen(function*() {
        const receiver = yield* receiverScoped()
        const u = yield* keyOf("org-u")
        const hook = yield* createHook(u.key, receiver.url, ["section.submitted"])
        const res = yield* call(`${portal}/sections/as-travel`, { method: "POST", body: { values: { arrival: "2027-08-19" } } })
        assert.strictEqual(res.status, 200, res.text)
        yield* received(receiver, 1)
        const body = verified(hook.secret, receiver.received[0] as Received)
        assert.strictEqual(body.type, "section.submitted")
        assert.include(body.data, { organisation_id: "org-u", form_id: "fs-advance", engagement_id: "eng-1" })
        yield* adminCall(u.key, "DELETE", `/admin/webhooks/${hook.id}`)
      })))
  })
}

reportSkippedPostgres("webhooks")
