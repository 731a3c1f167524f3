/**
 * Every route the server answers, each with an arbitrary of hostile requests to it (valid and invalid tokens and
 * ids). The routes are the API definition's (`definedRoutes`): `routeTableProblems` names each one this table
 * lacks, so a new route fails the suite (and routeTable.test.ts) until it has its fuzzing entry.
 */
import fc from "fast-check"
import { HttpApi, type HttpApiGroup } from "effect/http-api"
import { Api } from "@forms/adapters-http"
import { fx } from "../support/paths.js"
import { ifMatch } from "./adminBodies.js"
import { type BodyShape, type RequestSpec, requestTo, segment } from "./requests.js"

export interface Ids {
  readonly drafts: ReadonlyArray<string>
  readonly submitted: ReadonlyArray<string>
  readonly otherSchema: ReadonlyArray<string>
  /** Organiser keys and ids (CONTRACT §12): a key of the fixture's organisation, one of another. */
  readonly admin?: AdminIds
}

export interface AdminIds {
  readonly key: string
  readonly otherKey: string
  readonly events: ReadonlyArray<string>
  readonly slots: ReadonlyArray<string>
  readonly sections: ReadonlyArray<string>
  readonly artists: ReadonlyArray<string>
  readonly engagements: ReadonlyArray<string>
  /** §12 forms and "Submissions out", §13 webhooks: ids of the run's own, the fixture's, another organisation's. */
  readonly out?: OutIds
}

export interface OutIds {
  /** Forms only read (and the load form deleted: 409, it has submissions): the fixture's. */
  readonly readForms: ReadonlyArray<string>
  /** The run's own forms, changed, rotated and deleted by the fuzz. */
  readonly ownForms: ReadonlyArray<string>
  /** A form of the other organisation (404 to this key). */
  readonly foreignForm: string
  readonly submissions: ReadonlyArray<string>
  /** Submissions the fuzz may erase (never the ones the regressions use). */
  readonly erasable: ReadonlyArray<string>
  readonly contacts: ReadonlyArray<string>
  readonly outboxEvents: ReadonlyArray<string>
  readonly webhooks: ReadonlyArray<string>
  readonly deliveries: ReadonlyArray<string>
  /** Messages of the run's organisation (held, failed) and an unknown id. */
  readonly messages: ReadonlyArray<string>
}

export interface Route {
  readonly name: string
  readonly method: string
  readonly requests: fc.Arbitrary<RequestSpec>
  /** Slugs a submission or section answer may hold in `values`. */
  readonly slugs?: ReadonlyArray<string>
  /** 2xx answers that are not `{ data }` JSON (the docs page, the raw OpenAPI document). */
  readonly rawSuccess?: boolean
  /** Not a route of the definition: no check names it (the random paths). */
  readonly extra?: boolean
  /**
   * Nothing written on refusal: SQL counts (`n`) that each grow by exactly the number of 201 answers
   * during the route's run (the created rows, their audit entries).
   */
  readonly created?: ReadonlyArray<string>
}

const publicTokens = [fx.loadToken, fx.regexToken, fx.closedToken, fx.unpublishedToken, fx.advanceToken, fx.rotatedOutToken]
const tokens = segment(publicTokens)
const bodyTokens = segment([fx.loadToken, fx.loadToken, fx.loadToken, fx.regexToken, fx.closedToken, fx.rotatedOutToken])
const allSlugs = [...fx.loadSlugs, ...fx.regexSlugs]
const manageTokens = segment(["A".repeat(43), "0123456789abcdefghijklmnopqrstuvwxyzABCDEFG"])
const advanceSlugs = ["stage_plot_url", "crew_size", "dietary"]

const route = (name: string, method: string, path: fc.Arbitrary<string>, shape: BodyShape, extra: Partial<Route> = {}): Route => ({
  name,
  method,
  requests: requestTo(method, path, shape, extra.slugs ?? allSlugs),
  ...extra
})

/** Mostly the valid key; otherwise none, malformed, another organisation's, revoked-looking junk. */
const authorization = (a: AdminIds): fc.Arbitrary<string | undefined> =>
  fc.oneof(
    { weight: 8, arbitrary: fc.constant(`Bearer ${a.key}`) },
    fc.constantFrom(undefined, `Bearer ${a.otherKey}`, "Bearer", "Bearer ", "bearer " + a.key, `Basic ${a.key}`,
      `Bearer ${"x".repeat(513)}`, `Bearer fok_${"A".repeat(43)}`, `Bearer ${a.key} extra`),
    fc.string({ maxLength: 80 }).map((junk) => `Bearer ${junk}`.trim())
  )

const adminRoute = (
  a: AdminIds,
  name: string,
  method: string,
  path: fc.Arbitrary<string>,
  shape: BodyShape,
  extra: Partial<Route> & { readonly ifMatch?: boolean } = {}
): Route => ({
  name,
  method,
  requests: fc.tuple(requestTo(method, path, shape, []), authorization(a), extra.ifMatch === true ? ifMatch : fc.constant(undefined))
    .map(([spec, auth, match]) => ({
      ...spec,
      headers: {
        ...spec.headers,
        ...(auth === undefined ? {} : { authorization: auth }),
        ...(match === undefined ? {} : { "if-match": match })
      }
    })),
  ...(extra.rawSuccess === undefined ? {} : { rawSuccess: extra.rawSuccess }),
  ...(extra.created === undefined ? {} : { created: extra.created })
})

const listQuery = fc.oneof(
  { weight: 3, arbitrary: fc.constant("") },
  fc.constantFrom("?limit=1", "?limit=200", "?limit=0", "?limit=201", "?limit=abc", "?cursor=", "?cursor=%zz", "?limit=1&limit=2"),
  fc.tuple(fc.jsonValue(), fc.boolean()).map(([v, b64]) => {
    const text = JSON.stringify(v) ?? "null"
    return `?cursor=${b64 ? Buffer.from(text).toString("base64url") : encodeURIComponent(text)}`
  })
)

/** Every organiser route, with the fixture's ids, ids created for the run, and junk. */
export const adminRoutes = (a: AdminIds): ReadonlyArray<Route> => {
  const events = segment(a.events)
  const slots = segment(a.slots)
  const sections = segment(a.sections)
  const artists = segment(a.artists)
  const engagements = segment(a.engagements)
  const advanceSections = segment([...fx.portalSections, "as-e2e-gone"])
  const r = (method: string, template: string, path: fc.Arbitrary<string>, shape: BodyShape) =>
    adminRoute(a, `${method} ${template}`, method, path, shape)
  return [
    r("GET", "/admin/organisation", fc.constant("/admin/organisation"), "none"),
    r("GET", "/admin/events", listQuery.map((q) => `/admin/events${q}`), "none"),
    r("POST", "/admin/events", fc.constant("/admin/events"), "admin"),
    r("GET", "/admin/events/:eventId", events.map((e) => `/admin/events/${e}`), "none"),
    r("PATCH", "/admin/events/:eventId", events.map((e) => `/admin/events/${e}`), "admin"),
    r("DELETE", "/admin/events/:eventId", events.map((e) => `/admin/events/${e}`), "none"),
    r("GET", "/admin/events/:eventId/time-slots", fc.tuple(events, listQuery).map(([e, q]) => `/admin/events/${e}/time-slots${q}`), "none"),
    r("POST", "/admin/events/:eventId/time-slots", events.map((e) => `/admin/events/${e}/time-slots`), "admin"),
    r("PATCH", "/admin/time-slots/:slotId", slots.map((t) => `/admin/time-slots/${t}`), "admin"),
    r("DELETE", "/admin/time-slots/:slotId", slots.map((t) => `/admin/time-slots/${t}`), "none"),
    r("GET", "/admin/events/:eventId/sections", fc.tuple(events, listQuery).map(([e, q]) => `/admin/events/${e}/sections${q}`), "none"),
    r("POST", "/admin/events/:eventId/sections", events.map((e) => `/admin/events/${e}/sections`), "admin"),
    r("PATCH", "/admin/event-sections/:sectionId", sections.map((s) => `/admin/event-sections/${s}`), "admin"),
    r("DELETE", "/admin/event-sections/:sectionId", sections.map((s) => `/admin/event-sections/${s}`), "none"),
    r("GET", "/admin/audit-log", listQuery.map((q) => `/admin/audit-log${q}`), "none"),
    r("GET", "/admin/artists", listQuery.map((q) => `/admin/artists${q}`), "none"),
    r("POST", "/admin/artists", fc.constant("/admin/artists"), "admin"),
    r("GET", "/admin/artists/:artistId", artists.map((x) => `/admin/artists/${x}`), "none"),
    r("DELETE", "/admin/artists/:artistId", artists.map((x) => `/admin/artists/${x}`), "none"),
    r("GET", "/admin/engagements", query(param("overdue", ["true", "false", "TRUE", "1"])).map((q) => `/admin/engagements${q}`), "none"),
    r("POST", "/admin/engagements", fc.constant("/admin/engagements"), "engagement"),
    r("GET", "/admin/engagements/:engagementId", engagements.map((x) => `/admin/engagements/${x}`), "none"),
    r("PATCH", "/admin/engagements/:engagementId", engagements.map((x) => `/admin/engagements/${x}`), "engagementPatch"),
    r(
      "PATCH",
      "/admin/engagements/:engagementId/sections/:sectionId",
      fc.tuple(engagements, advanceSections).map(([x, s]) => `/admin/engagements/${x}/sections/${s}`),
      "sectionSchedule"
    ),
    r("POST", "/admin/engagements/:engagementId/portal-link", engagements.map((x) => `/admin/engagements/${x}/portal-link`), "portalLink")
  ]
}

/** A query parameter: absent mostly, then its values, junk, twice, encoded junk. */
const param = (name: string, values: ReadonlyArray<string>): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constant("") },
    { weight: 4, arbitrary: fc.constantFrom(...values).map((v) => `${name}=${encodeURIComponent(v)}`) },
    fc.constantFrom(`${name}=`, `${name}`, `${name}=%zz`, `${name}=%00`, `${name}=${values[0] ?? ""}&${name}=${values[0] ?? ""}`,
      `${name}[]=x`, `${name}=${"x".repeat(5000)}`),
    fc.string({ maxLength: 30 }).map((v) => `${name}=${encodeURIComponent(v)}`)
  )

/** `?` and the list's paging with the route's own parameters, in any order. */
const query = (...params: ReadonlyArray<fc.Arbitrary<string>>): fc.Arbitrary<string> =>
  fc.tuple(fc.oneof({ weight: 2, arbitrary: fc.constant("") }, listQuery), fc.tuple(...params), fc.boolean()).map(([list, own, first]) => {
    const parts = [list.replace(/^\?/, ""), ...own].filter((p) => p !== "")
    return parts.length === 0 ? "" : `?${(first ? parts : [...parts].reverse()).join("&")}`
  })

const instants = ["2020-01-01", "2020-01-01T00:00:00Z", "2020-01-01T00:00:00.123456789+02:00", "2020-02-30", "2020-01-01T24:00:00Z",
  "2020-01-01T00:00:00", "9999-12-31T23:59:59Z", "0000-01-01", "+275760-09-13", "1970-01-01T00:00:00-00:00", "now"]

/** §12 forms, "Submissions out" and §13 webhooks. Routes that erase or delete come after those that read. */
export const outRoutes = (a: AdminIds, o: OutIds): ReadonlyArray<Route> => {
  const readForms = segment([...o.readForms, ...o.ownForms, o.foreignForm])
  // Never a fixture form here: a PUT, PATCH or rotation of one would change what the public routes and the checks use.
  const ownForms = segment([...o.ownForms, ...o.ownForms, o.foreignForm])
  const deletable = segment([...o.ownForms, o.foreignForm, "fs-e2e-load"])
  const submissions = segment(o.submissions)
  const erasable = segment(o.erasable)
  const contacts = segment(o.contacts)
  const events = segment(o.outboxEvents)
  const hooks = segment(o.webhooks)
  const deliveries = segment(o.deliveries)
  const messages = segment(o.messages)
  const status = param("status", ["draft", "submitted", "pending", "delivered", "failed", "DRAFT"])
  const r = (method: string, template: string, path: fc.Arbitrary<string>, shape: BodyShape, extra: Partial<Route> & { readonly ifMatch?: boolean } = {}) =>
    adminRoute(a, `${method} ${template}`, method, path, shape, extra)
  return [
    r("GET", "/admin/forms", listQuery.map((q) => `/admin/forms${q}`), "none"),
    r("POST", "/admin/forms", fc.constant("/admin/forms"), "form", {
      created: ["SELECT count(*)::int AS n FROM form_schemas", "SELECT count(*)::int AS n FROM audit_log WHERE action = 'form.created'"]
    }),
    r("GET", "/admin/forms/:formId", readForms.map((f) => `/admin/forms/${f}`), "none"),
    r("PUT", "/admin/forms/:formId", ownForms.map((f) => `/admin/forms/${f}`), "form", { ifMatch: true }),
    r("PATCH", "/admin/forms/:formId", ownForms.map((f) => `/admin/forms/${f}`), "formPatch", { ifMatch: true }),
    r("POST", "/admin/forms/:formId/rotate-token", ownForms.map((f) => `/admin/forms/${f}/rotate-token`), "none"),
    r("GET", "/admin/forms/:formId/submissions", fc.tuple(readForms, query(status, param("since", instants)))
      .map(([f, q]) => `/admin/forms/${f}/submissions${q}`), "none"),
    r("GET", "/admin/forms/:formId/export", fc.tuple(readForms, query(status, param("format", ["csv", "ndjson", "CSV", "xlsx"])))
      .map(([f, q]) => `/admin/forms/${f}/export${q}`), "none", { rawSuccess: true }),
    r("GET", "/admin/submissions/:submissionId", submissions.map((x) => `/admin/submissions/${x}`), "none"),
    r("GET", "/admin/files/:fileId", segment(["0192f1c4-0000-4000-8000-000000000000", "x"]).map((x) => `/admin/files/${x}`), "none"),
    r("GET", "/admin/contacts", query(param("email", ["cy@example.org", "CY@EXAMPLE.ORG", "nobody@example.org", " ", "a@b"]))
      .map((q) => `/admin/contacts${q}`), "none"),
    r("GET", "/admin/outbox", query(param("state", ["dead", "pending", "delivered", "failed"])).map((q) => `/admin/outbox${q}`), "none"),
    r("POST", "/admin/outbox/:eventId/retry", events.map((e) => `/admin/outbox/${e}/retry`), "none"),
    r("GET", "/admin/webhooks", listQuery.map((q) => `/admin/webhooks${q}`), "none"),
    r("POST", "/admin/webhooks", fc.constant("/admin/webhooks"), "webhook", {
      created: ["SELECT count(*)::int AS n FROM webhook_endpoints", "SELECT count(*)::int AS n FROM audit_log WHERE action = 'webhook.created'"]
    }),
    r("GET", "/admin/webhooks/:webhookId", hooks.map((h) => `/admin/webhooks/${h}`), "none"),
    r("PATCH", "/admin/webhooks/:webhookId", hooks.map((h) => `/admin/webhooks/${h}`), "webhookPatch"),
    r("POST", "/admin/webhooks/:webhookId/rotate-secret", hooks.map((h) => `/admin/webhooks/${h}/rotate-secret`), "none"),
    r("POST", "/admin/webhooks/:webhookId/test", hooks.map((h) => `/admin/webhooks/${h}/test`), "none"),
    r("GET", "/admin/webhooks/:webhookId/deliveries", fc.tuple(hooks, query(status)).map(([h, q]) => `/admin/webhooks/${h}/deliveries${q}`), "none"),
    r("POST", "/admin/webhooks/:webhookId/deliveries/:deliveryId/retry", fc.tuple(hooks, deliveries)
      .map(([h, d]) => `/admin/webhooks/${h}/deliveries/${d}/retry`), "none"),
    r("POST", "/admin/webhooks/:webhookId/replay", hooks.map((h) => `/admin/webhooks/${h}/replay`), "replay"),
    r("GET", "/admin/messages", query(param("status", ["held", "pending", "sent", "failed", "queued", "HELD"]),
      param("submission_id", [...o.submissions, "0192f1c4-0000-4000-8000-000000000000"])).map((q) => `/admin/messages${q}`), "none"),
    r("GET", "/admin/messages/:messageId", messages.map((m) => `/admin/messages/${m}`), "none"),
    r("POST", "/admin/messages/:messageId/retry", messages.map((m) => `/admin/messages/${m}/retry`), "none"),
    r("DELETE", "/admin/webhooks/:webhookId", hooks.map((h) => `/admin/webhooks/${h}`), "none"),
    r("DELETE", "/admin/forms/:formId", deletable.map((f) => `/admin/forms/${f}`), "none"),
    r("DELETE", "/admin/submissions/:submissionId", erasable.map((x) => `/admin/submissions/${x}`), "none"),
    r("POST", "/admin/submissions/:submissionId/manage-link", submissions.map((x) => `/admin/submissions/${x}/manage-link`), "none"),
    r("DELETE", "/admin/contacts/:contactId", contacts.map((c) => `/admin/contacts/${c}`), "none")
  ]
}

export const placeholderOut: OutIds = {
  readForms: ["x"], ownForms: ["x"], foreignForm: "x", submissions: ["x"], erasable: ["x"], contacts: ["x"], outboxEvents: ["x"],
  webhooks: ["x"], deliveries: ["x"], messages: ["x"]
}

/** Every route of `api` as `METHOD template`, and the two routes served beside it (the document and its page). */
export const definedRoutes = <Id extends string, Groups extends HttpApiGroup.Constraint>(
  api: HttpApi.HttpApi<Id, Groups>
): Array<string> => {
  const defined: Array<string> = []
  HttpApi.reflect(api, { onGroup: () => {}, onEndpoint: ({ endpoint }) => defined.push(`${endpoint.method} ${endpoint.path}`) })
  return [...defined, "GET /openapi.json", "GET /docs"]
}

/** What keeps `table` from fuzzing `defined`: each route it lacks, each entry that is no route, each one twice. */
export const routeTableProblems = (table: ReadonlyArray<Route>, defined: ReadonlyArray<string>): Array<string> => {
  const names = table.filter((route) => route.extra !== true).map((route) => route.name)
  return [
    ...defined.filter((route) => !names.includes(route)).map((route) => `${route}: no fuzzing entry`),
    ...names.filter((name) => !defined.includes(name)).map((name) => `${name}: not a route of the definition`),
    ...names.filter((name, index) => names.indexOf(name) !== index).map((name) => `${name}: twice`)
  ]
}

/** Every route with its requests, in the order the suite runs them; throws naming each route without an entry. */
export const routes = (ids: Ids): ReadonlyArray<Route> => {
  const table = routeTable(ids)
  const problems = routeTableProblems(table, definedRoutes(Api))
  if (problems.length > 0) throw new Error(`the abuse route table is not the definition's:\n${problems.join("\n")}`)
  return table
}

/** The table itself, one entry per route (and the random paths). */
export const routeTable = (ids: Ids): ReadonlyArray<Route> => {
  const admin = ids.admin ?? { key: "", otherKey: "", events: ["x"], slots: ["x"], sections: ["x"], artists: ["x"], engagements: ["x"] }
  const submissionIds = segment([...ids.drafts, ...ids.drafts, ...ids.submitted, ...ids.otherSchema])
  const withSubmission = fc.tuple(bodyTokens, submissionIds)
  const portalTokens = segment([fx.portalToken, fx.portalToken, fx.portalGoneToken])
  const sections = segment([...fx.portalSections, "fsec-e2e-tech", "as-e2e-gone"])
  const pageTokens = segment([fx.loadToken, fx.closedToken, fx.unpublishedToken, fx.rotatedOutToken])
  const randomPath = fc.array(segment(["public", "forms", "p", "artist", "health", "submissions", "sections", fx.loadToken]), { maxLength: 7 })
    .map((parts) => "/" + parts.join("/"))
  return [
    route("GET /public/forms/:token", "GET", tokens.map((t) => `/public/forms/${t}`), "none"),
    route("POST /public/forms/:token/submissions", "POST", bodyTokens.map((t) => `/public/forms/${t}/submissions`), "create", { slugs: allSlugs }),
    route("PUT /public/forms/:token/submissions/:submissionId", "PUT", withSubmission.map(([t, id]) => `/public/forms/${t}/submissions/${id}`), "values", { slugs: allSlugs }),
    route("POST /public/forms/:token/submissions/:submissionId/submit", "POST", withSubmission.map(([t, id]) => `/public/forms/${t}/submissions/${id}/submit`), "values", { slugs: allSlugs }),
    // Uploads: raw bodies of any kind (the hostile ones of every route), a field named or not, odd names.
    route("POST /public/forms/:token/submissions/:submissionId/files", "POST",
      fc.tuple(withSubmission, fc.constantFrom("", "?field=note", "?field=email", "?field=", "?field=__proto__", "?field=%zz"))
        .map(([[t, id], q]) => `/public/forms/${t}/submissions/${id}/files${q}`), "none"),
    route("DELETE /public/forms/:token/submissions/:submissionId/files/:fileId", "DELETE",
      fc.tuple(withSubmission, segment(["0192f1c4-0000-4000-8000-000000000000", "x"]))
        .map(([[t, id], f]) => `/public/forms/${t}/submissions/${id}/files/${f}`), "none"),
    route("GET /public/forms/:token/time-slots", "GET", tokens.map((t) => `/public/forms/${t}/time-slots`), "none"),
    // Manage tokens are random and shown once: the fuzz sends token-shaped and hostile ones (404 MANAGE_NOT_FOUND).
    route("GET /public/manage/:token", "GET", manageTokens.map((t) => `/public/manage/${t}`), "none"),
    route("DELETE /public/manage/:token/places/:slotId", "DELETE",
      fc.tuple(manageTokens, segment(["sl-e2e-1", "x"])).map(([t, s]) => `/public/manage/${t}/places/${s}`), "none"),
    route("GET /public/forms/:token/sections", "GET", tokens.map((t) => `/public/forms/${t}/sections`), "none"),
    route("GET /health/live", "GET", fc.constant("/health/live"), "none"),
    route("GET /health/ready", "GET", fc.constant("/health/ready"), "none"),
    route("GET /openapi.json", "GET", fc.constant("/openapi.json"), "none", { rawSuccess: true }),
    // The docs page is 3 MB: HEAD (the same route without the body) keeps 5,000 runs cheap; some runs are GETs.
    route("GET /docs", "HEAD", fc.constant("/docs"), "none", { rawSuccess: true }),
    route("GET /p/artist/:token", "GET", portalTokens.map((t) => `/p/artist/${t}`), "none"),
    route("GET /p/artist/:token/sections/:sectionId", "GET", fc.tuple(portalTokens, sections).map(([t, s]) => `/p/artist/${t}/sections/${s}`), "none", { slugs: advanceSlugs }),
    route("POST /p/artist/:token/sections/:sectionId", "POST", fc.tuple(portalTokens, sections).map(([t, s]) => `/p/artist/${t}/sections/${s}`), "values", { slugs: advanceSlugs }),
    route("PUT /p/artist/:token/sections/:sectionId", "PUT", fc.tuple(portalTokens, sections).map(([t, s]) => `/p/artist/${t}/sections/${s}`), "values", { slugs: advanceSlugs }),
    route("GET /f/:token", "GET", pageTokens.map((t) => `/f/${t}`), "none", { rawSuccess: true }),
    route("GET /portal/:token", "GET", portalTokens.map((t) => `/portal/${t}`), "none", { rawSuccess: true }),
    route("GET /embed.js", "GET", fc.constant("/embed.js"), "none", { rawSuccess: true }),
    route("GET /favicon.ico", "GET", fc.constant("/favicon.ico"), "none", { rawSuccess: true }),
    route("any method, any path", "GET", randomPath, "none", { extra: true }),
    ...adminRoutes(admin),
    ...outRoutes(admin, admin.out ?? placeholderOut)
  ]
}
