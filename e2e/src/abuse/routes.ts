/** Every route the server answers, each with an arbitrary of hostile requests to it (valid and invalid tokens and ids). */
import fc from "fast-check"
import { fx } from "../support/paths.js"
import { type BodyShape, type RequestSpec, requestTo, segment } from "./requests.js"

export interface Ids {
  readonly drafts: ReadonlyArray<string>
  readonly submitted: ReadonlyArray<string>
  readonly otherSchema: ReadonlyArray<string>
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
    route("any method, any path", "GET", randomPath, "none")
  ]
}
