/**
 * A script that calls every route of the server, as a client would, each answer kept with its route: the wire
 * transcript compares the answers with a committed file, the OpenAPI test validates them against the document.
 */
import { assert } from "@effect/vitest"
import { Effect } from "effect"
import { HttpApi } from "effect/http-api"
import { SqlClient } from "effect/sql"
import { Api } from "@forms/adapters-http"
import { keyOf } from "./adminSupport.js"
import { baseUrl, eventually } from "./harness.js"
import { type Exchange, itemsOf, type Sent, send } from "./wireSupport.js"

/** The server's environment for the script: limits that its calls stay under. */
export const wireEnv = { SUBMIT_RATE_LIMIT_PER_HOUR: "10000", WRITE_RATE_LIMIT_PER_HOUR: "10000" }

/** Every endpoint of the definition, as `METHOD template`. */
export const definedRoutes = (): Array<string> => {
  const routes: Array<string> = []
  HttpApi.reflect(Api, { onGroup: () => {}, onEndpoint: ({ endpoint }) => routes.push(`${endpoint.method} ${endpoint.path}`) })
  return routes
}

const contact = "/public/forms/test-contact-token-0001"
const portal = "/p/artist/test-portal-token-0001"

/** Calls every route (some several times, answers of every kind), in order; the exchanges in the order sent. */
export const wireScript = Effect.gen(function*() {
  const base = yield* baseUrl
  const exchanges: Array<Exchange> = []
  const go = (route: string, sent: Sent) =>
    Effect.promise(async () => {
      const exchange = await send(base, route, sent)
      exchanges.push(exchange)
      return exchange
    })
  const idOf = (exchange: Exchange) => String((JSON.parse(exchange.text) as { data: { id: string } }).data.id)
  const { key } = yield* keyOf("org-t")
  const auth = { authorization: `Bearer ${key}` }
  const admin = (route: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    go(route, { method, path, headers: { ...auth, ...headers }, ...(body === undefined ? {} : { body }) })

  // Public forms
  yield* go("GET /public/forms/:token", { method: "GET", path: contact })
  yield* go("GET /public/forms/:token", { method: "GET", path: "/public/forms/no-such-token", headers: { origin: "https://a.example" } })
  const created = yield* go("POST /public/forms/:token/submissions", {
    method: "POST",
    path: `${contact}/submissions`,
    body: { idempotency_key: "wire-transcript-key-0001", values: { email: "Wire@Example.org" } }
  })
  const created2 = yield* go("POST /public/forms/:token/submissions", {
    method: "POST",
    path: `${contact}/submissions`,
    body: { idempotency_key: "wire-transcript-key-0001", values: { email: "Wire@Example.org" } }
  })
  assert.strictEqual(created2.status, 200, created2.text)
  yield* go("POST /public/forms/:token/submissions", {
    method: "POST",
    path: `${contact}/submissions`,
    body: { idempotency_key: "wire-transcript-key-0002", values: { email: "not an address", interest: "nope" } }
  })
  yield* go("POST /public/forms/:token/submissions", { method: "POST", path: `${contact}/submissions`, body: { values: [] } })
  yield* go("POST /public/forms/:token/submissions", {
    method: "POST",
    path: `${contact}/submissions`,
    raw: "{}",
    headers: { "content-type": "text/plain" }
  })
  const submission = idOf(created)
  yield* go("PUT /public/forms/:token/submissions/:submissionId", {
    method: "PUT",
    path: `${contact}/submissions/${submission}`,
    body: { values: { phone: "+44 20 7946 0000", unknown: 1 } }
  })
  // Uploads: the form has no file field (422 at `field`), an unknown upload (404), a declared size over the cap (413)
  const upload = "POST /public/forms/:token/submissions/:submissionId/files"
  yield* go(upload, {
    method: "POST",
    path: `${contact}/submissions/${submission}/files?field=email`,
    raw: "%PDF-1.7",
    headers: { "content-type": "application/pdf", "x-file-name": "rider%2F.pdf" }
  })
  yield* go(upload, { method: "POST", path: `${contact}/submissions/${submission}/files`, raw: "x" })
  yield* go(upload, {
    method: "POST",
    path: `/public/forms/no-such-token/submissions/${submission}/files?field=rider`,
    raw: "x",
    headers: { "x-file-name": "a.pdf" }
  })
  yield* go("DELETE /public/forms/:token/submissions/:submissionId/files/:fileId", {
    method: "DELETE",
    path: `${contact}/submissions/${submission}/files/0192f1c4-0000-4000-8000-000000000000`
  })
  yield* go("POST /public/forms/:token/submissions/:submissionId/submit", {
    method: "POST",
    path: `${contact}/submissions/${submission}/submit`
  })
  yield* go("POST /public/forms/:token/submissions/:submissionId/submit", {
    method: "POST",
    path: `${contact}/submissions/${submission}/submit`,
    body: {}
  })
  const other = idOf(yield* go("POST /public/forms/:token/submissions", {
    method: "POST",
    path: `${contact}/submissions`,
    body: { idempotency_key: "wire-transcript-key-0003", values: { email: "other@example.org" } }
  }))
  yield* go("POST /public/forms/:token/submissions/:submissionId/submit", {
    method: "POST",
    path: `${contact}/submissions/${other}/submit`
  })
  yield* go("GET /public/forms/:token/time-slots", { method: "GET", path: "/public/forms/test-open-token-0001/time-slots" })
  yield* go("GET /public/forms/:token/time-slots", { method: "GET", path: `${contact}/time-slots` })
  yield* go("GET /public/forms/:token/sections", { method: "GET", path: "/public/forms/test-registration-0001/sections" })

  // Artist portal
  yield* go("GET /p/artist/:token", { method: "GET", path: portal })
  yield* go("GET /p/artist/:token", { method: "GET", path: "/p/artist/test-portal-gone-0001" })
  yield* go("GET /p/artist/:token/sections/:sectionId", { method: "GET", path: `${portal}/sections/as-travel` })
  yield* go("GET /p/artist/:token/sections/:sectionId", { method: "GET", path: `${portal}/sections/nope` })
  yield* go("PUT /p/artist/:token/sections/:sectionId", {
    method: "PUT",
    path: `${portal}/sections/as-hosp`,
    body: { values: { guests: 2 } }
  })
  yield* go("PUT /p/artist/:token/sections/:sectionId", {
    method: "PUT",
    path: `${portal}/sections/as-hosp`,
    body: { values: { guests: 11 } }
  })
  yield* go("POST /p/artist/:token/sections/:sectionId", {
    method: "POST",
    path: `${portal}/sections/as-hosp`,
    body: { values: { dietary: 1 } }
  })
  yield* go("POST /p/artist/:token/sections/:sectionId", {
    method: "POST",
    path: `${portal}/sections/as-hosp`,
    body: { values: { dietary: "None", guests: 2 } }
  })

  // System, the document, pages
  yield* go("GET /health/live", { method: "GET", path: "/health/live" })
  yield* go("GET /health/ready", { method: "GET", path: "/health/ready" })
  yield* go("GET /openapi.json", { method: "GET", path: "/openapi.json" })
  yield* go("GET /docs", { method: "HEAD", path: "/docs" })
  yield* go("GET /f/:token", { method: "GET", path: "/f/test-contact-token-0001" })
  yield* go("GET /f/:token", { method: "GET", path: "/f/no-such-token" })
  yield* go("GET /portal/:token", { method: "GET", path: "/portal/test-portal-token-0001" })
  yield* go("GET /portal/:token", { method: "GET", path: "/portal/test-portal-gone-0001" })
  const script = yield* go("GET /embed.js", { method: "GET", path: "/embed.js" })
  yield* go("GET /embed.js", { method: "GET", path: "/embed.js", headers: { "if-none-match": script.headers["etag"] ?? "" } })
  const icon = yield* go("GET /favicon.ico", { method: "GET", path: "/favicon.ico" })
  yield* go("GET /favicon.ico", { method: "GET", path: "/favicon.ico", headers: { "if-none-match": icon.headers["etag"] ?? "" } })
  yield* go("unknown route", { method: "GET", path: "/nowhere" })
  yield* go("unknown method", { method: "DELETE", path: contact })

  // Organiser: catalog
  yield* go("GET /admin/organisation", { method: "GET", path: "/admin/organisation" })
  yield* admin("GET /admin/organisation", "GET", "/admin/organisation", undefined, { origin: "https://a.example" })
  yield* admin("GET /admin/files/:fileId", "GET", "/admin/files/0192f1c4-0000-4000-8000-000000000000")
  yield* admin("GET /admin/messages", "GET", "/admin/messages?status=sent&limit=2")
  yield* admin("GET /admin/messages", "GET", "/admin/messages?status=queued")
  yield* admin("GET /admin/messages/:messageId", "GET", "/admin/messages/0192f1c4-0000-4000-8000-000000000000")
  yield* admin("POST /admin/messages/:messageId/retry", "POST", "/admin/messages/0192f1c4-0000-4000-8000-000000000000/retry")
  const event = idOf(yield* admin("POST /admin/events", "POST", "/admin/events", { name: "Wire fest" }))
  yield* admin("POST /admin/events", "POST", "/admin/events", { name: "" })
  yield* admin("GET /admin/events", "GET", "/admin/events?limit=2")
  yield* admin("GET /admin/events", "GET", "/admin/events?limit=0")
  yield* admin("GET /admin/events/:eventId", "GET", `/admin/events/${event}`)
  yield* admin("GET /admin/events/:eventId", "GET", "/admin/events/nope")
  yield* admin("PATCH /admin/events/:eventId", "PATCH", `/admin/events/${event}`, { name: "Wire fest 2" })
  const slot = idOf(yield* admin("POST /admin/events/:eventId/time-slots", "POST", `/admin/events/${event}/time-slots`, {
    name: "Morning",
    date: "2027-08-20",
    start_time: "08:00",
    end_time: "12:00",
    capacity: 3
  }))
  yield* admin("GET /admin/events/:eventId/time-slots", "GET", `/admin/events/${event}/time-slots`)
  yield* admin("PATCH /admin/time-slots/:slotId", "PATCH", `/admin/time-slots/${slot}`, { capacity: null })
  const section = idOf(yield* admin("POST /admin/events/:eventId/sections", "POST", `/admin/events/${event}/sections`, { name: "Bar" }))
  yield* admin("GET /admin/events/:eventId/sections", "GET", `/admin/events/${event}/sections`)
  yield* admin("PATCH /admin/event-sections/:sectionId", "PATCH", `/admin/event-sections/${section}`, { position: 4 })
  yield* admin("DELETE /admin/event-sections/:sectionId", "DELETE", `/admin/event-sections/${section}`)
  yield* admin("DELETE /admin/time-slots/:slotId", "DELETE", `/admin/time-slots/${slot}`)

  // Organiser: artists and engagements
  const artist = idOf(yield* admin("POST /admin/artists", "POST", "/admin/artists", { name: "Wire Band" }))
  yield* admin("GET /admin/artists", "GET", "/admin/artists")
  yield* admin("GET /admin/artists/:artistId", "GET", `/admin/artists/${artist}`)
  const createdEngagement = yield* admin("POST /admin/engagements", "POST", "/admin/engagements", {
    event_id: event,
    master_artist_id: artist,
    contact_email: "manager@example.org",
    advance_sections: [{ name: "Travel", position: 1, due_at: "2020-01-01T00:00:00Z" }, { name: "Rider", position: 2 }]
  })
  const engagement = idOf(createdEngagement)
  const travelSection = String((JSON.parse(createdEngagement.text) as { data: { advance_sections: Array<{ id: string }> } }).data.advance_sections[0]?.id)
  yield* admin("POST /admin/engagements", "POST", "/admin/engagements", { event_id: "nope", master_artist_id: artist, advance_sections: [] })
  yield* admin("GET /admin/engagements", "GET", "/admin/engagements?limit=1")
  yield* admin("GET /admin/engagements", "GET", "/admin/engagements?overdue=true&limit=1")
  yield* admin("GET /admin/engagements", "GET", "/admin/engagements?overdue=yes")
  yield* admin("PATCH /admin/engagements/:engagementId", "PATCH", `/admin/engagements/${engagement}`, { contact_email: null })
  yield* admin("PATCH /admin/engagements/:engagementId", "PATCH", `/admin/engagements/${engagement}`, { contact_email: "nope" })
  yield* admin("PATCH /admin/engagements/:engagementId/sections/:sectionId", "PATCH",
    `/admin/engagements/${engagement}/sections/${travelSection}`, { locks_at: "2099-01-01T00:00:00Z", locked: true })
  yield* admin("PATCH /admin/engagements/:engagementId/sections/:sectionId", "PATCH",
    `/admin/engagements/${engagement}/sections/nope`, { locked: false })
  yield* admin("GET /admin/engagements/:engagementId", "GET", `/admin/engagements/${engagement}`)
  yield* admin("POST /admin/engagements/:engagementId/portal-link", "POST", `/admin/engagements/${engagement}/portal-link`)
  yield* admin("DELETE /admin/artists/:artistId", "DELETE", `/admin/artists/${artist}`)
  yield* admin("DELETE /admin/events/:eventId", "DELETE", `/admin/events/${event}`)
  const spare = idOf(yield* admin("POST /admin/events", "POST", "/admin/events", { name: "Spare" }))
  yield* admin("DELETE /admin/events/:eventId", "DELETE", `/admin/events/${spare}`)

  // Organiser: forms
  const form = yield* admin("POST /admin/forms", "POST", "/admin/forms", {
    name: "Crew",
    type: "volunteer",
    event_id: "ev-t",
    status: "draft",
    tags: ["crew"],
    sections: [{ id: "about", name: "About you", position: 1 }],
    fields: [
      { id: "email", section_id: "about", slug: "email", label: "Email", type: "email", is_required: true },
      {
        slug: "size",
        label: "Size",
        type: "select",
        options: ["S", { value: "M", label: "Medium", tags: ["m"] }],
        validation_rules: { max: 3, min: 1 }
      }
    ]
  })
  const formId = idOf(form)
  yield* admin("GET /admin/forms", "GET", "/admin/forms?limit=2")
  yield* admin("GET /admin/forms/:formId", "GET", `/admin/forms/${formId}`)
  yield* admin("PUT /admin/forms/:formId", "PUT", `/admin/forms/${formId}`, { name: "Crew", type: "volunteer", event_id: null })
  yield* admin("PUT /admin/forms/:formId", "PUT", `/admin/forms/${formId}`, { name: "Crew", type: "volunteer", event_id: null }, {
    "if-match": "\"1\""
  })
  yield* admin("PATCH /admin/forms/:formId", "PATCH", `/admin/forms/${formId}`, { name: "Crew 2" })
  yield* admin("POST /admin/forms/:formId/rotate-token", "POST", `/admin/forms/${formId}/rotate-token`)
  yield* admin("DELETE /admin/forms/:formId", "DELETE", `/admin/forms/${formId}`)
  yield* admin("DELETE /admin/forms/:formId", "DELETE", "/admin/forms/fs-contact")

  // Organiser: submissions out
  yield* admin("GET /admin/forms/:formId/submissions", "GET", "/admin/forms/fs-contact/submissions?status=submitted")
  yield* admin("GET /admin/forms/:formId/submissions", "GET", "/admin/forms/fs-contact/submissions?since=yesterday")
  yield* admin("GET /admin/submissions/:submissionId", "GET", `/admin/submissions/${submission}`)
  yield* admin("GET /admin/forms/:formId/export", "GET", "/admin/forms/fs-contact/export")
  yield* admin("GET /admin/forms/:formId/export", "GET", "/admin/forms/fs-contact/export?format=ndjson&status=submitted")
  const contacts = yield* eventually(
    Effect.map(Effect.promise(() => send(base, "", { method: "GET", path: "/admin/contacts", headers: auth })), itemsOf),
    (items) => items.length === 2
  )
  yield* admin("GET /admin/contacts", "GET", "/admin/contacts?email=wire%40example.org")
  const sql = yield* SqlClient.SqlClient
  const [dead] = yield* sql<{ readonly id: string }>`INSERT INTO outbox (type, payload, attempts, last_error, available_at, created_at, dead_at)
    VALUES ('submission.erased', '{"submission_id": "00000000-0000-4000-8000-00000000dead", "organisation_id": "org-t"}'::jsonb,
      5, 'timeout', now(), now(), now()) RETURNING id::text AS id`
  yield* admin("GET /admin/outbox", "GET", "/admin/outbox")
  yield* admin("POST /admin/outbox/:eventId/retry", "POST", `/admin/outbox/${dead?.id ?? ""}/retry`)
  const wire = contacts.find((c) => c["key"] === "wire@example.org")
  yield* admin("DELETE /admin/contacts/:contactId", "DELETE", `/admin/contacts/${String(wire?.["id"])}`)
  yield* admin("DELETE /admin/submissions/:submissionId", "DELETE", `/admin/submissions/${other}`)
  yield* admin("DELETE /admin/submissions/:submissionId", "DELETE", `/admin/submissions/${submission}`)

  // Webhooks: disabled first, so that no delivery is attempted while the script reads them
  const hook = idOf(yield* admin("POST /admin/webhooks", "POST", "/admin/webhooks", {
    url: "https://hooks.example.com/in",
    event_types: ["*"],
    description: "crm"
  }))
  yield* admin("PATCH /admin/webhooks/:webhookId", "PATCH", `/admin/webhooks/${hook}`, { enabled: false })
  yield* admin("GET /admin/webhooks", "GET", "/admin/webhooks")
  yield* admin("GET /admin/webhooks/:webhookId", "GET", `/admin/webhooks/${hook}`)
  yield* admin("POST /admin/webhooks/:webhookId/rotate-secret", "POST", `/admin/webhooks/${hook}/rotate-secret`)
  yield* admin("POST /admin/webhooks/:webhookId/test", "POST", `/admin/webhooks/${hook}/test`)
  const deliveries = yield* admin("GET /admin/webhooks/:webhookId/deliveries", "GET", `/admin/webhooks/${hook}/deliveries`)
  const delivery = String(itemsOf(deliveries)[0]?.["id"])
  yield* admin("GET /admin/webhooks/:webhookId/deliveries", "GET", `/admin/webhooks/${hook}/deliveries?status=sent`)
  yield* admin(
    "POST /admin/webhooks/:webhookId/deliveries/:deliveryId/retry",
    "POST",
    `/admin/webhooks/${hook}/deliveries/${delivery}/retry`
  )
  yield* admin("POST /admin/webhooks/:webhookId/replay", "POST", `/admin/webhooks/${hook}/replay`, { since: "2020-01-01T00:00:00Z" })
  yield* admin("DELETE /admin/webhooks/:webhookId", "DELETE", `/admin/webhooks/${hook}`)
  yield* admin("GET /admin/audit-log", "GET", "/admin/audit-log?limit=3")

  // Volunteer shifts: the manage link of a submit, the volunteer's places, one given up, a new link
  const shiftsForm = yield* admin("POST /admin/forms", "POST", "/admin/forms", {
    name: "Wire shifts",
    type: "volunteer",
    event_id: "ev-t",
    status: "published",
    fields: [{ slug: "shifts", label: "Shifts", type: "time_slots" }]
  })
  const shifts = `/public/forms/${String((JSON.parse(shiftsForm.text) as { data: { public_token: string } }).data.public_token)}`
  const volunteer = idOf(yield* go("POST /public/forms/:token/submissions", {
    method: "POST",
    path: `${shifts}/submissions`,
    body: { idempotency_key: "wire-transcript-shifts-0001" }
  }))
  const placed = yield* go("POST /public/forms/:token/submissions/:submissionId/submit", {
    method: "POST",
    path: `${shifts}/submissions/${volunteer}/submit`,
    body: { values: { shifts: ["ts-1"] } }
  })
  const manage = `/public/manage/${String((JSON.parse(placed.text) as { data: { manage_url: string } }).data.manage_url).split("/m/")[1]}`
  yield* go("GET /public/manage/:token", { method: "GET", path: manage })
  yield* go("GET /public/manage/:token", { method: "GET", path: "/public/manage/no-such-manage-token" })
  yield* go("DELETE /public/manage/:token/places/:slotId", { method: "DELETE", path: `${manage}/places/ts-unknown` })
  yield* go("DELETE /public/manage/:token/places/:slotId", { method: "DELETE", path: `${manage}/places/ts-1` })
  yield* admin("POST /admin/submissions/:submissionId/manage-link", "POST", `/admin/submissions/${volunteer}/manage-link`)
  return exchanges
})
