/**
 * The two-organisation table: every organiser route (every endpoint behind the organiser's key, as the API
 * definition has them) with how to call it on an organisation's own resources, what it answers, and which id
 * in its path or body names a resource another organisation may own. `tableProblems` names each route of the
 * definition the table lacks, so a new organiser route fails admin.test.ts until it has its case.
 */
import { Effect } from "effect"
import { HttpApi, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { SqlClient } from "effect/sql"
import { Api, OrganiserAuth } from "@forms/adapters-http"
import { adminCall, data, keyOf, list } from "./adminSupport.js"
import { call } from "./harness.js"

/** Every endpoint behind the organiser's key in `api`, as `METHOD template`. */
export const organiserRoutesOf = <Id extends string, Groups extends HttpApiGroup.Constraint>(
  api: HttpApi.HttpApi<Id, Groups>
): Array<string> => {
  const routes: Array<string> = []
  HttpApi.reflect(api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, middleware }) => {
      if (Array.from(middleware, (m) => m.key).includes(OrganiserAuth.key)) routes.push(`${endpoint.method} ${endpoint.path}`)
    }
  })
  return routes
}

/** Ids of an organisation's resources, one of each kind, made fresh for one route. */
export interface Ids {
  /** An event nothing refers to. */
  readonly event: string
  /** The event of `slot`, `section` and `engagement`. */
  readonly holder: string
  readonly slot: string
  readonly section: string
  readonly artist: string
  readonly engagement: string
  /** The advance section of `engagement`. */
  readonly advanceSection: string
  /** A published form with `submission`. */
  readonly form: string
  /** A form without submissions (deletable). */
  readonly spareForm: string
  readonly submission: string
  readonly contact: string
  /** A dead outbox event of the organisation. */
  readonly outboxEvent: string
  /** A disabled endpoint (nothing is delivered), with `delivery` queued. */
  readonly webhook: string
  readonly delivery: string
  /** A stored upload of a draft of `form`. */
  readonly file: string
  /** A held message of `submission`. */
  readonly message: string
}

type Kind =
  | "event"
  | "slot"
  | "section"
  | "artist"
  | "engagement"
  | "form"
  | "submission"
  | "contact"
  | "outboxEvent"
  | "webhook"
  | "file"
  | "message"

export interface OrganiserRoute {
  readonly method: string
  /** As in the API definition. */
  readonly template: string
  readonly path: (ids: Ids) => string
  readonly body?: unknown
  /** A body that names resources by id (instead of `body`). */
  readonly bodyOf?: (ids: Ids) => unknown
  readonly headers?: Record<string, string>
  /**
   * Body members that name resources: ids of another organisation (or unknown ones) answer 422 with
   * rule `in` on each of them.
   */
  readonly references?: ReadonlyArray<string>
  readonly status: number
  /** The resource its path names first (answered 404 with its code for an id of another organisation). */
  readonly kind?: Kind
  /** Members of `data` (of each item for lists). */
  readonly members?: ReadonlyArray<string>
  readonly isList?: boolean
  /** The success is not JSON (the export, a download). */
  readonly raw?: boolean
}

/** The body a route is called with for `ids`. */
export const bodyFor = (route: OrganiserRoute, ids: Ids): unknown => route.bodyOf?.(ids) ?? route.body

/** Ids that name nothing. */
export const unknownIds: Ids = {
  event: "nope", holder: "nope", slot: "nope", section: "nope", artist: "nope", engagement: "nope", advanceSection: "nope", form: "nope",
  spareForm: "nope", submission: "00000000-0000-4000-8000-000000000000", contact: "00000000-0000-4000-8000-000000000000",
  outboxEvent: "00000000-0000-4000-8000-000000000000", webhook: "00000000-0000-4000-8000-000000000000",
  delivery: "00000000-0000-4000-8000-000000000000", file: "00000000-0000-4000-8000-000000000000",
  message: "00000000-0000-4000-8000-000000000000"
}

export const notFoundCode: Record<Kind, string> = {
  event: "EVENT_NOT_FOUND",
  slot: "TIME_SLOT_NOT_FOUND",
  section: "EVENT_SECTION_NOT_FOUND",
  artist: "ARTIST_NOT_FOUND",
  engagement: "ENGAGEMENT_NOT_FOUND",
  form: "FORM_NOT_FOUND",
  submission: "SUBMISSION_NOT_FOUND",
  contact: "CONTACT_NOT_FOUND",
  outboxEvent: "OUTBOX_EVENT_NOT_FOUND",
  webhook: "WEBHOOK_NOT_FOUND",
  file: "FILE_NOT_FOUND",
  message: "MESSAGE_NOT_FOUND"
}

let seeded = 0

/**
 * Makes a fresh set of resources of `key`'s organisation through the API itself (rows a dispatcher would
 * write, with SQL), with a key of its own: the `admin` limit of `key` counts only the route under test.
 */
export const freshIds = (ownerKey: string) =>
  Effect.gen(function*() {
    const organisation = String(data(yield* adminCall(ownerKey, "GET", "/admin/organisation"))["id"])
    const { key } = yield* keyOf(organisation)
    const post = (path: string, body?: unknown) =>
      Effect.map(adminCall(key, "POST", path, body), (r) => {
        if (r.status !== 201 && r.status !== 202) throw new Error(`POST ${path}: ${r.status} ${r.text}`)
        return data(r)
      })
    const id = (answer: Record<string, unknown>) => String(answer["id"])
    const holder = id(yield* post("/admin/events", { name: "Holder" }))
    const slot = id(yield* post(`/admin/events/${holder}/time-slots`, {
      name: "Morning",
      date: "2027-08-20",
      start_time: "08:00",
      end_time: "12:00"
    }))
    const section = id(yield* post(`/admin/events/${holder}/sections`, { name: "Bar" }))
    const event = id(yield* post("/admin/events", { name: "Empty" }))
    const artist = id(yield* post("/admin/artists", { name: "The Band" }))
    const engagementAnswer = yield* post("/admin/engagements", {
      event_id: holder,
      master_artist_id: artist,
      advance_sections: [{ name: "Travel", position: 1 }]
    })
    const engagement = id(engagementAnswer)
    const advanceSection = String((engagementAnswer["advance_sections"] as ReadonlyArray<Record<string, unknown>>)[0]?.["id"])
    const formAnswer = yield* post("/admin/forms", {
      name: "Contact",
      type: "registration",
      event_id: holder,
      status: "published",
      fields: [{ slug: "email", label: "Email", type: "email" }, { slug: "rider", label: "Rider", type: "file" }]
    })
    const form = id(formAnswer)
    // An upload through the public routes, as a visitor makes one.
    const publicForm = `/public/forms/${String(formAnswer["public_token"])}`
    const draft = data(yield* call(`${publicForm}/submissions`, { method: "POST", body: { idempotency_key: `seed-upload-${seeded}-${Date.now()}` } }))
    const uploaded = yield* call(`${publicForm}/submissions/${String(draft["id"])}/files?field=rider`, {
      method: "POST",
      raw: "%PDF-1.7 seed",
      headers: { "content-type": "application/pdf", "x-file-name": "rider.pdf" }
    })
    if (uploaded.status !== 201) throw new Error(`upload: ${uploaded.status} ${uploaded.text}`)
    const file = id(data(uploaded))
    const spareForm = id(yield* post("/admin/forms", { name: "Spare", type: "registration", event_id: null }))
    const sql = yield* SqlClient.SqlClient
    const email = `seed-${Date.now()}-${seeded++}@example.org`
    const [submission] = yield* sql<{ readonly id: string }>`
      INSERT INTO submissions (schema_id, idempotency_key, status, values, created_at, updated_at, submitted_at)
      VALUES (${form}, ${`seed-key-${email}`}, 'submitted', ${JSON.stringify({ email })}::jsonb, now(), now(), now())
      RETURNING id::text AS id`
    const [contact] = yield* sql<{ readonly id: string }>`
      INSERT INTO contacts (organisation_id, key) VALUES (${organisation}, ${email}) RETURNING id::text AS id`
    const [outboxEvent] = yield* sql<{ readonly id: string }>`
      INSERT INTO outbox (type, payload, attempts, last_error, available_at, created_at, dead_at)
      VALUES ('submission.erased', ${JSON.stringify({ submission_id: submission?.id, organisation_id: organisation })}::jsonb,
        5, 'timeout', now(), now(), now())
      RETURNING id::text AS id`
    const [message] = yield* sql<{ readonly id: string }>`
      INSERT INTO messages (organisation_id, submission_id, kind, to_address, subject, body, status, due_at, created_at)
      VALUES (${organisation}, ${submission?.id ?? null}::uuid, 'confirmation', ${email}, 'Thanks', 'Hello', 'held', now(), now())
      RETURNING id::text AS id`
    const webhook = id(yield* post("/admin/webhooks", { url: "https://hooks.example.com/in", event_types: ["submission.erased"] }))
    yield* adminCall(key, "PATCH", `/admin/webhooks/${webhook}`, { enabled: false })
    yield* post(`/admin/webhooks/${webhook}/test`)
    const delivery = String(list(yield* adminCall(key, "GET", `/admin/webhooks/${webhook}/deliveries`))[0]?.["id"])
    return {
      event, holder, slot, section, artist, engagement, advanceSection, form, spareForm, submission: submission?.id ?? "",
      contact: contact?.id ?? "", outboxEvent: outboxEvent?.id ?? "", webhook, delivery, file, message: message?.id ?? ""
    } satisfies Ids
  }).pipe(Effect.orDie)

const eventMembers = ["created_at", "effective_timezone", "id", "name", "parent_event_id", "timezone"]
const slotMembers = [
  "capacity", "date", "duration_hours", "end_time", "ends_at", "event_id", "event_name", "id", "name", "remaining",
  "signup_closes_at", "signup_opens_at", "start_time", "starts_at", "waitlist", "waitlisted"
]
const sectionMembers = ["event_id", "id", "name", "position", "show_in_registration", "type"]
const engagementMembers = ["advance_sections", "contact_email", "created_at", "event_id", "id", "master_artist_id"]
const artistMembers = ["deleted_at", "id", "name"]
const formMembers = [
  "closes_at", "created_at", "event_id", "fields", "id", "languages", "missing_translations", "name", "opens_at",
  "page_url", "previous_public_token", "public_token", "public_url", "revision", "sections", "status", "tags",
  "token_rotated_at", "translations", "type", "updated_at"
]
const formItemMembers = ["closes_at", "counts", "event_id", "id", "name", "opens_at", "revision", "status", "type"]
// The seeded form has a file field, so its submissions carry `files`.
const submissionMembers = [
  "auto_save_count", "contact_id", "created_at", "event_id", "files", "form_id", "id", "idempotency_key", "language", "status",
  "submitted_at", "tags", "updated_at", "values"
]
const webhookMembers = ["created_at", "description", "disabled_reason", "enabled", "event_types", "id", "url"]
const deliveryMembers = ["attempts", "created_at", "event_id", "event_type", "id", "next_attempt_at", "status"]
const messageMembers = [
  "attempts", "created_at", "engagement_id", "id", "kind", "last_error", "sent_at", "status", "subject", "submission_id", "to"
]
const slotBody = { name: "Evening", date: "2027-08-21", start_time: "22:00", end_time: "02:00", capacity: 4 }

/** Every organiser route; admin.test.ts checks this list against the API definition (`tableProblems`). */
export const organiserRoutes: ReadonlyArray<OrganiserRoute> = [
  // catalog
  { method: "GET", template: "/admin/organisation", path: () => "/admin/organisation", status: 200, members: ["id", "name"] },
  { method: "GET", template: "/admin/events", path: () => "/admin/events", status: 200, members: eventMembers, isList: true },
  { method: "POST", template: "/admin/events", path: () => "/admin/events", body: { name: "New" }, status: 201, members: eventMembers },
  { method: "GET", template: "/admin/events/:eventId", path: (i) => `/admin/events/${i.event}`, status: 200, kind: "event", members: eventMembers },
  { method: "PATCH", template: "/admin/events/:eventId", path: (i) => `/admin/events/${i.event}`, body: { name: "Renamed" }, status: 200, kind: "event", members: eventMembers },
  { method: "DELETE", template: "/admin/events/:eventId", path: (i) => `/admin/events/${i.event}`, status: 204, kind: "event" },
  { method: "GET", template: "/admin/events/:eventId/time-slots", path: (i) => `/admin/events/${i.holder}/time-slots`, status: 200, kind: "event", members: slotMembers, isList: true },
  { method: "POST", template: "/admin/events/:eventId/time-slots", path: (i) => `/admin/events/${i.event}/time-slots`, body: slotBody, status: 201, kind: "event", members: slotMembers },
  { method: "PATCH", template: "/admin/time-slots/:slotId", path: (i) => `/admin/time-slots/${i.slot}`, body: { capacity: null }, status: 200, kind: "slot", members: slotMembers },
  { method: "DELETE", template: "/admin/time-slots/:slotId", path: (i) => `/admin/time-slots/${i.slot}`, status: 204, kind: "slot" },
  { method: "GET", template: "/admin/events/:eventId/sections", path: (i) => `/admin/events/${i.holder}/sections`, status: 200, kind: "event", members: sectionMembers, isList: true },
  { method: "POST", template: "/admin/events/:eventId/sections", path: (i) => `/admin/events/${i.event}/sections`, body: { name: "Stage", position: 2 }, status: 201, kind: "event", members: sectionMembers },
  { method: "PATCH", template: "/admin/event-sections/:sectionId", path: (i) => `/admin/event-sections/${i.section}`, body: { show_in_registration: false }, status: 200, kind: "section", members: sectionMembers },
  { method: "DELETE", template: "/admin/event-sections/:sectionId", path: (i) => `/admin/event-sections/${i.section}`, status: 204, kind: "section" },
  { method: "GET", template: "/admin/audit-log", path: () => "/admin/audit-log", status: 200, members: ["action", "api_key_id", "at", "id", "resource_id", "resource_type"], isList: true },
  // artists
  { method: "GET", template: "/admin/artists", path: () => "/admin/artists", status: 200, members: artistMembers, isList: true },
  { method: "POST", template: "/admin/artists", path: () => "/admin/artists", body: { name: "New Band" }, status: 201, members: artistMembers },
  { method: "GET", template: "/admin/artists/:artistId", path: (i) => `/admin/artists/${i.artist}`, status: 200, kind: "artist", members: [...artistMembers, "profile"].sort() },
  { method: "DELETE", template: "/admin/artists/:artistId", path: (i) => `/admin/artists/${i.artist}`, status: 204, kind: "artist" },
  // engagements
  { method: "GET", template: "/admin/engagements", path: () => "/admin/engagements", status: 200, members: engagementMembers, isList: true },
  {
    method: "POST",
    template: "/admin/engagements",
    path: () => "/admin/engagements",
    bodyOf: (i) => ({ event_id: i.event, master_artist_id: i.artist, advance_sections: [{ name: "Rider", position: 0 }] }),
    references: ["event_id", "master_artist_id"],
    status: 201,
    members: engagementMembers
  },
  { method: "GET", template: "/admin/engagements/:engagementId", path: (i) => `/admin/engagements/${i.engagement}`, status: 200, kind: "engagement", members: [...engagementMembers, "advance", "values"].sort() },
  {
    method: "PATCH",
    template: "/admin/engagements/:engagementId",
    path: (i) => `/admin/engagements/${i.engagement}`,
    body: { contact_email: "manager@example.org" },
    status: 200,
    kind: "engagement",
    members: engagementMembers
  },
  {
    method: "PATCH",
    template: "/admin/engagements/:engagementId/sections/:sectionId",
    path: (i) => `/admin/engagements/${i.engagement}/sections/${i.advanceSection}`,
    body: { due_at: "2027-08-01T12:00:00Z", locks_at: null, locked: true },
    status: 200,
    kind: "engagement",
    members: engagementMembers
  },
  { method: "POST", template: "/admin/engagements/:engagementId/portal-link", path: (i) => `/admin/engagements/${i.engagement}/portal-link`, status: 200, kind: "engagement", members: ["page_url", "portal_url"] },
  // forms
  { method: "GET", template: "/admin/forms", path: () => "/admin/forms", status: 200, members: formItemMembers, isList: true },
  {
    method: "POST",
    template: "/admin/forms",
    path: () => "/admin/forms",
    bodyOf: (i) => ({ name: "New form", type: "registration", event_id: i.event }),
    references: ["event_id"],
    status: 201,
    members: formMembers
  },
  { method: "GET", template: "/admin/forms/:formId", path: (i) => `/admin/forms/${i.form}`, status: 200, kind: "form", members: formMembers },
  {
    method: "PUT",
    template: "/admin/forms/:formId",
    path: (i) => `/admin/forms/${i.form}`,
    bodyOf: (i) => ({ name: "Replaced", type: "registration", event_id: i.event, fields: [{ slug: "email", label: "Email", type: "email" }] }),
    headers: { "if-match": "*" },
    references: ["event_id"],
    status: 200,
    kind: "form",
    members: formMembers
  },
  { method: "PATCH", template: "/admin/forms/:formId", path: (i) => `/admin/forms/${i.form}`, body: { name: "Renamed" }, status: 200, kind: "form", members: formMembers },
  { method: "DELETE", template: "/admin/forms/:formId", path: (i) => `/admin/forms/${i.spareForm}`, status: 204, kind: "form" },
  {
    method: "POST",
    template: "/admin/forms/:formId/rotate-token",
    path: (i) => `/admin/forms/${i.form}/rotate-token`,
    status: 200,
    kind: "form",
    members: ["page_url", "previous_public_token", "public_token", "public_url", "token_rotated_at"]
  },
  // submissions out
  { method: "GET", template: "/admin/forms/:formId/submissions", path: (i) => `/admin/forms/${i.form}/submissions`, status: 200, kind: "form", members: submissionMembers, isList: true },
  { method: "GET", template: "/admin/submissions/:submissionId", path: (i) => `/admin/submissions/${i.submission}`, status: 200, kind: "submission", members: submissionMembers },
  { method: "GET", template: "/admin/forms/:formId/export", path: (i) => `/admin/forms/${i.form}/export`, status: 200, kind: "form", raw: true },
  { method: "DELETE", template: "/admin/submissions/:submissionId", path: (i) => `/admin/submissions/${i.submission}`, status: 204, kind: "submission" },
  {
    method: "POST",
    template: "/admin/submissions/:submissionId/manage-link",
    path: (i) => `/admin/submissions/${i.submission}/manage-link`,
    status: 201,
    kind: "submission",
    members: ["manage_url"]
  },
  // files
  { method: "GET", template: "/admin/files/:fileId", path: (i) => `/admin/files/${i.file}`, status: 200, kind: "file", raw: true },
  { method: "GET", template: "/admin/contacts", path: () => "/admin/contacts", status: 200, members: ["created_at", "id", "key", "submission_ids", "tags"], isList: true },
  { method: "DELETE", template: "/admin/contacts/:contactId", path: (i) => `/admin/contacts/${i.contact}`, status: 204, kind: "contact" },
  { method: "GET", template: "/admin/outbox", path: () => "/admin/outbox", status: 200, members: ["attempts", "available_at", "created_at", "dead_at", "id", "last_error", "type"], isList: true },
  {
    method: "POST",
    template: "/admin/outbox/:eventId/retry",
    path: (i) => `/admin/outbox/${i.outboxEvent}/retry`,
    status: 200,
    kind: "outboxEvent",
    members: ["attempts", "available_at", "created_at", "dead_at", "id", "last_error", "type"]
  },
  // webhooks
  { method: "GET", template: "/admin/webhooks", path: () => "/admin/webhooks", status: 200, members: webhookMembers, isList: true },
  {
    method: "POST",
    template: "/admin/webhooks",
    path: () => "/admin/webhooks",
    body: { url: "https://hooks.example.com/new", event_types: ["*"] },
    status: 201,
    members: [...webhookMembers, "secret"].sort()
  },
  { method: "GET", template: "/admin/webhooks/:webhookId", path: (i) => `/admin/webhooks/${i.webhook}`, status: 200, kind: "webhook", members: webhookMembers },
  { method: "PATCH", template: "/admin/webhooks/:webhookId", path: (i) => `/admin/webhooks/${i.webhook}`, body: { description: "crm" }, status: 200, kind: "webhook", members: webhookMembers },
  { method: "DELETE", template: "/admin/webhooks/:webhookId", path: (i) => `/admin/webhooks/${i.webhook}`, status: 204, kind: "webhook" },
  { method: "POST", template: "/admin/webhooks/:webhookId/rotate-secret", path: (i) => `/admin/webhooks/${i.webhook}/rotate-secret`, status: 200, kind: "webhook", members: ["secret"] },
  { method: "POST", template: "/admin/webhooks/:webhookId/test", path: (i) => `/admin/webhooks/${i.webhook}/test`, status: 202, kind: "webhook", members: ["event_id"] },
  { method: "GET", template: "/admin/webhooks/:webhookId/deliveries", path: (i) => `/admin/webhooks/${i.webhook}/deliveries`, status: 200, kind: "webhook", members: deliveryMembers, isList: true },
  {
    method: "POST",
    template: "/admin/webhooks/:webhookId/deliveries/:deliveryId/retry",
    path: (i) => `/admin/webhooks/${i.webhook}/deliveries/${i.delivery}/retry`,
    status: 202,
    kind: "webhook",
    members: deliveryMembers
  },
  {
    method: "POST",
    template: "/admin/webhooks/:webhookId/replay",
    path: (i) => `/admin/webhooks/${i.webhook}/replay`,
    body: { since: "2020-01-01T00:00:00Z" },
    status: 202,
    kind: "webhook",
    members: ["queued"]
  },
  // messages
  { method: "GET", template: "/admin/messages", path: () => "/admin/messages", status: 200, members: messageMembers, isList: true },
  { method: "GET", template: "/admin/messages/:messageId", path: (i) => `/admin/messages/${i.message}`, status: 200, kind: "message", members: [...messageMembers, "body"].sort() },
  { method: "POST", template: "/admin/messages/:messageId/retry", path: (i) => `/admin/messages/${i.message}/retry`, status: 202, kind: "message", members: messageMembers }
]

/** What keeps `table` from being the two-organisation table of `defined`: each route it lacks, each it has twice or too many. */
export const tableProblems = (table: ReadonlyArray<OrganiserRoute>, defined: ReadonlyArray<string>): Array<string> => {
  const names = table.map((route) => `${route.method} ${route.template}`)
  return [
    ...defined.filter((route) => !names.includes(route)).map((route) => `${route}: no two-organisation case`),
    ...names.filter((name) => !defined.includes(name)).map((name) => `${name}: not an organiser route of the definition`),
    ...names.filter((name, index) => names.indexOf(name) !== index).map((name) => `${name}: twice`)
  ]
}

/** The organiser routes of the served definition. */
export const definedOrganiserRoutes = (): Array<string> => organiserRoutesOf(Api)

/** The served definition with one more organiser route, as a new feature would add it: for the check's own test. */
export const definitionWithNewRoute = () =>
  Api.add(HttpApiGroup.make("newFeature").add(HttpApiEndpoint.get("listThings", "/admin/things")).middleware(OrganiserAuth))
