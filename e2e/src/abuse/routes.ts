/** Every route the server answers, each with an arbitrary of hostile requests to it (valid and invalid tokens and ids). */
import fc from "fast-check"
import { fx } from "../support/paths.js"
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
}

export interface Route {
  readonly name: string
  readonly method: string
  readonly requests: fc.Arbitrary<RequestSpec>
  /** Slugs a submission or section answer may hold in `values`. */
  readonly slugs?: ReadonlyArray<string>
  /** 2xx answers that are not `{ data }` JSON (the docs page, the raw OpenAPI document). */
  readonly rawSuccess?: boolean
}

const publicTokens = [fx.loadToken, fx.regexToken, fx.closedToken, fx.unpublishedToken, fx.advanceToken, fx.rotatedOutToken]
const tokens = segment(publicTokens)
const bodyTokens = segment([fx.loadToken, fx.loadToken, fx.loadToken, fx.regexToken, fx.closedToken, fx.rotatedOutToken])
const allSlugs = [...fx.loadSlugs, ...fx.regexSlugs]
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

const adminRoute = (a: AdminIds, name: string, method: string, path: fc.Arbitrary<string>, shape: BodyShape): Route => ({
  name,
  method,
  requests: fc.tuple(requestTo(method, path, shape, []), authorization(a)).map(([spec, auth]) => ({
    ...spec,
    headers: auth === undefined ? spec.headers : { ...spec.headers, authorization: auth }
  }))
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
  const r = (method: string, template: string, path: fc.Arbitrary<string>, shape: BodyShape) =>
    adminRoute(a, `${method} ${template}`, method, path, shape)
  return [
    r("GET", "/admin/organisation", fc.constant("/admin/organisation"), "none"),
    r("GET", "/admin/events", listQuery.map((q) => `/admin/events${q}`), "none"),
    r("POST", "/admin/events", fc.constant("/admin/events"), "admin"),
    r("GET", "/admin/events/:id", events.map((e) => `/admin/events/${e}`), "none"),
    r("PATCH", "/admin/events/:id", events.map((e) => `/admin/events/${e}`), "admin"),
    r("DELETE", "/admin/events/:id", events.map((e) => `/admin/events/${e}`), "none"),
    r("GET", "/admin/events/:id/time-slots", fc.tuple(events, listQuery).map(([e, q]) => `/admin/events/${e}/time-slots${q}`), "none"),
    r("POST", "/admin/events/:id/time-slots", events.map((e) => `/admin/events/${e}/time-slots`), "admin"),
    r("PATCH", "/admin/time-slots/:id", slots.map((t) => `/admin/time-slots/${t}`), "admin"),
    r("DELETE", "/admin/time-slots/:id", slots.map((t) => `/admin/time-slots/${t}`), "none"),
    r("GET", "/admin/events/:id/sections", fc.tuple(events, listQuery).map(([e, q]) => `/admin/events/${e}/sections${q}`), "none"),
    r("POST", "/admin/events/:id/sections", events.map((e) => `/admin/events/${e}/sections`), "admin"),
    r("PATCH", "/admin/event-sections/:id", sections.map((s) => `/admin/event-sections/${s}`), "admin"),
    r("DELETE", "/admin/event-sections/:id", sections.map((s) => `/admin/event-sections/${s}`), "none"),
    r("GET", "/admin/audit-log", listQuery.map((q) => `/admin/audit-log${q}`), "none"),
    r("GET", "/admin/artists", listQuery.map((q) => `/admin/artists${q}`), "none"),
    r("POST", "/admin/artists", fc.constant("/admin/artists"), "admin"),
    r("GET", "/admin/artists/:id", artists.map((x) => `/admin/artists/${x}`), "none"),
    r("DELETE", "/admin/artists/:id", artists.map((x) => `/admin/artists/${x}`), "none"),
    r("GET", "/admin/engagements", listQuery.map((q) => `/admin/engagements${q}`), "none"),
    r("POST", "/admin/engagements", fc.constant("/admin/engagements"), "engagement"),
    r("GET", "/admin/engagements/:id", engagements.map((x) => `/admin/engagements/${x}`), "none"),
    r("POST", "/admin/engagements/:id/portal-link", engagements.map((x) => `/admin/engagements/${x}/portal-link`), "none")
  ]
}

export const routes = (ids: Ids): ReadonlyArray<Route> => {
  const submissionIds = segment([...ids.drafts, ...ids.drafts, ...ids.submitted, ...ids.otherSchema])
  const withSubmission = fc.tuple(bodyTokens, submissionIds)
  const portalTokens = segment([fx.portalToken, fx.portalToken, fx.portalGoneToken])
  const sections = segment([...fx.portalSections, "fsec-e2e-tech", "as-e2e-gone"])
  const randomPath = fc.array(segment(["public", "forms", "p", "artist", "health", "submissions", "sections", fx.loadToken]), { maxLength: 7 })
    .map((parts) => "/" + parts.join("/"))
  return [
    route("GET /public/forms/:token", "GET", tokens.map((t) => `/public/forms/${t}`), "none"),
    route("POST /public/forms/:token/submissions", "POST", bodyTokens.map((t) => `/public/forms/${t}/submissions`), "create", { slugs: allSlugs }),
    route("PUT /public/forms/:token/submissions/:id", "PUT", withSubmission.map(([t, id]) => `/public/forms/${t}/submissions/${id}`), "values", { slugs: allSlugs }),
    route("POST /public/forms/:token/submissions/:id/submit", "POST", withSubmission.map(([t, id]) => `/public/forms/${t}/submissions/${id}/submit`), "values", { slugs: allSlugs }),
    route("GET /public/forms/:token/time-slots", "GET", tokens.map((t) => `/public/forms/${t}/time-slots`), "none"),
    route("GET /public/forms/:token/sections", "GET", tokens.map((t) => `/public/forms/${t}/sections`), "none"),
    route("GET /health/live", "GET", fc.constant("/health/live"), "none"),
    route("GET /health/ready", "GET", fc.constant("/health/ready"), "none"),
    route("GET /openapi.json", "GET", fc.constant("/openapi.json"), "none", { rawSuccess: true }),
    // The docs page is 3 MB: HEAD (the same route without the body) keeps 5,000 runs cheap; some runs are GETs.
    route("GET /docs", "HEAD", fc.constant("/docs"), "none", { rawSuccess: true }),
    route("GET /p/artist/:token", "GET", portalTokens.map((t) => `/p/artist/${t}`), "none"),
    route("GET /p/artist/:token/sections/:section", "GET", fc.tuple(portalTokens, sections).map(([t, s]) => `/p/artist/${t}/sections/${s}`), "none", { slugs: advanceSlugs }),
    route("POST /p/artist/:token/sections/:section", "POST", fc.tuple(portalTokens, sections).map(([t, s]) => `/p/artist/${t}/sections/${s}`), "values", { slugs: advanceSlugs }),
    route("any method, any path", "GET", randomPath, "none"),
    ...adminRoutes(ids.admin ?? { key: "", otherKey: "", events: ["x"], slots: ["x"], sections: ["x"], artists: ["x"], engagements: ["x"] })
  ]
}
