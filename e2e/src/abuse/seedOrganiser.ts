/**
 * The resources §12 "forms", "Submissions out" and §13 give the abuse run: forms of its own (one with a
 * draft and a submitted submission, hence a contact and outbox events), one of another organisation,
 * webhook endpoints with a delivery, and a dead outbox event to retry.
 */
import type { Pool } from "undici"
import { type Answer, dataOf } from "../support/envelope.js"
import { send, sleep } from "../support/http.js"
import type { InProcessServer } from "../support/inProcessServer.js"
import type { OutIds } from "./routes.js"

const json = (key: string) => ({ "content-type": "application/json", authorization: `Bearer ${key}` })

const answerOf = async (pool: Pool, method: string, path: string, key: string | undefined, body?: unknown): Promise<Answer> => {
  const outcome = await send(pool, {
    method,
    path,
    headers: key === undefined ? { "content-type": "application/json" } : json(key),
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  if (outcome._tag !== "Answer") throw new Error(`seeding ${method} ${path}: ${outcome.error}`)
  return outcome
}

const dataOrThrow = async (pool: Pool, method: string, path: string, key: string | undefined, body?: unknown) => {
  const answer = await answerOf(pool, method, path, key, body)
  const data = dataOf(answer)
  if (answer.status >= 300 || data === undefined) throw new Error(`seeding ${method} ${path} failed: ${answer.status} ${answer.text.slice(0, 300)}`)
  return data
}

const listIds = async (pool: Pool, path: string, key: string): Promise<ReadonlyArray<string>> => {
  const answer = await answerOf(pool, "GET", path, key)
  const list: unknown = JSON.parse(answer.text)
  const data = typeof list === "object" && list !== null && "data" in list && Array.isArray(list.data) ? list.data as Array<unknown> : []
  return data.flatMap((item) => (typeof item === "object" && item !== null && "id" in item && typeof item.id === "string" ? [item.id] : []))
}

/** Polls a list until it holds something (the dispatcher's work is asynchronous), at most `ms`. */
const eventually = async (pool: Pool, path: string, key: string, ms = 15_000): Promise<ReadonlyArray<string>> => {
  const until = Date.now() + ms
  for (;;) {
    const ids = await listIds(pool, path, key)
    if (ids.length > 0 || Date.now() > until) return ids
    await sleep(200)
  }
}

const definition = (name: string, eventId: string) => ({
  name,
  type: "volunteer",
  event_id: eventId,
  status: "published",
  tags: ["abuse"],
  fields: [
    { slug: "full_name", label: "Name", type: "text", is_required: true },
    { slug: "email", label: "Email", type: "email", is_unique: true },
    { slug: "shirt", label: "Shirt", type: "select", options: ["S", { value: "M", tags: ["shirt-m"] }] }
  ]
})

export const seedOut = async (server: InProcessServer, pool: Pool, key: string, otherKey: string): Promise<OutIds> => {
  const forms: Array<string> = []
  const tokens: Array<string> = []
  for (const name of ["Abuse A", "Abuse B", "Abuse C"]) {
    const form = await dataOrThrow(pool, "POST", "/admin/forms", key, definition(name, "ev-e2e"))
    forms.push(String(form["id"]))
    tokens.push(String(form["public_token"]))
  }
  const foreign = await dataOrThrow(pool, "POST", "/admin/forms", otherKey, definition("Theirs", "ev-e2e-gone"))
  const token = tokens[0] ?? ""
  const create = async (values: Record<string, unknown>) =>
    String((await dataOrThrow(pool, "POST", `/public/forms/${token}/submissions`, undefined, { idempotency_key: crypto.randomUUID(), values }))["id"])
  const draft = await create({ full_name: "Dee" })
  const submitted = await create({ full_name: "Eve", shirt: "M" })
  await dataOrThrow(pool, "POST", `/public/forms/${token}/submissions/${submitted}/submit`, undefined, { values: { email: "eve@example.org" } })
  const another = await create({ full_name: "Fay" })
  await dataOrThrow(pool, "POST", `/public/forms/${token}/submissions/${another}/submit`, undefined, { values: { email: "fay@example.org" } })

  // Messages to list, read and retry: a held and a failed one of a submission of the run's own form.
  const messageRows = await server.query(
    `INSERT INTO messages (organisation_id, submission_id, kind, to_address, subject, body, status, last_error, due_at, created_at)
      SELECT f.organisation_id, $1::uuid, 'confirmation', 'eve@example.org', 'Thanks', 'Hello', m.status, m.last_error, now(), now()
      FROM form_schemas f, (VALUES ('held', NULL), ('failed', 'recipient limit')) AS m (status, last_error) WHERE f.id = $2
      RETURNING id::text AS id`,
    [submitted, forms[0]]
  )
  const messages = messageRows.map((row) => String(row["id"]))

  const hook = { url: "https://hooks.example.com/in", event_types: ["*"], description: "abuse" }
  const webhooks = [
    String((await dataOrThrow(pool, "POST", "/admin/webhooks", key, hook))["id"]),
    String((await dataOrThrow(pool, "POST", "/admin/webhooks", key, { ...hook, event_types: ["submission.submitted"] }))["id"])
  ]
  const foreignHook = String((await dataOrThrow(pool, "POST", "/admin/webhooks", otherKey, hook))["id"])
  await dataOrThrow(pool, "POST", `/admin/webhooks/${webhooks[0] ?? ""}/test`, key)
  const deliveries = await eventually(pool, `/admin/webhooks/${webhooks[0] ?? ""}/deliveries`, key)
  const contacts = await eventually(pool, "/admin/contacts", key)

  // A dead event to retry: one the dispatcher delivered, marked dead as its attempts running out would.
  const delivered = await eventually(pool, "/admin/outbox?state=delivered", key)
  if (delivered[0] !== undefined) {
    await server.query("UPDATE outbox SET delivered_at = NULL, dead_at = now(), last_error = 'abuse: gave up' WHERE id = $1", [delivered[0]])
  }
  const pending = await listIds(pool, "/admin/outbox?state=pending", key)
  if (deliveries.length === 0 || contacts.length === 0 || delivered.length === 0) {
    console.log(`abuse: seeding found ${deliveries.length} deliveries, ${contacts.length} contacts, ${delivered.length} delivered events ` +
      "(the dispatcher did not get to them in time): those routes are fuzzed with fewer valid ids")
  }
  return {
    readForms: ["fs-e2e-load", "fs-e2e-regex", "fs-e2e-closed", "fs-e2e-advance", "fs-e2e-unpublished"],
    ownForms: forms,
    foreignForm: String(foreign["id"]),
    submissions: [draft, submitted, another, "sub-e2e-unknown"],
    erasable: [draft, submitted, another],
    contacts: [...contacts, "0192f1c4-0000-4000-8000-000000000000"],
    outboxEvents: [...delivered, ...pending, "0192f1c4-0000-4000-8000-000000000001"],
    webhooks: [...webhooks, foreignHook],
    deliveries: [...deliveries, "0192f1c4-0000-4000-8000-000000000002"],
    messages: [...messages, "0192f1c4-0000-4000-8000-000000000003"]
  }
}
