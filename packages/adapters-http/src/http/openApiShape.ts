/**
 * The OpenAPI annotations the definition uses beyond its schemas: an operation's summary, an optional
 * request body, public operations, the licence, the servers, and the one document-level transform.
 */
import type { Context } from "effect"
import { type HttpApi, type HttpApiEndpoint, type HttpApiGroup, OpenApi } from "effect/http-api"

/** An operation's `summary` (Redocly's `operation-summary`), and a longer `description` when given. */
export const operation = (summary: string, description?: string): Context.Context<never> =>
  OpenApi.annotations({ summary, description })

/**
 * `security: []` on an operation: it needs no credentials. Give it to an endpoint (`endpoint.annotateMerge(publicOperation)`)
 * or to a whole group (`markPublic(group)`); a security middleware added to the whole API later leaves these
 * operations open in the document. It uses the endpoint's `override` annotation, so an endpoint marked public
 * cannot carry an override of its own (none does).
 */
export const publicOperation: Context.Context<never> = OpenApi.annotations({ override: { security: [] } })

/** Marks every endpoint of `group` public (endpoints added to the group afterwards are not). */
export const markPublic = <Id extends string, Endpoints extends HttpApiEndpoint.Constraint, TopLevel extends boolean>(
  group: HttpApiGroup.HttpApiGroup<Id, Endpoints, TopLevel>
): HttpApiGroup.HttpApiGroup<Id, Endpoints, TopLevel> => group.annotateEndpointsMerge(publicOperation)

/**
 * The request body may be absent (the server reads no body as `{}`). HttpApi marks every payload `required`, and
 * offers no schema-level way to say otherwise, so this endpoint `transform` sets `required: false`; it uses the
 * endpoint's one `transform` annotation.
 */
export const optionalBody: Context.Context<never> = OpenApi.annotations({
  transform: (op) => ({ ...op, requestBody: { ...op["requestBody"], required: false } })
})

export const apiLicense = { name: "MIT", identifier: "MIT" } as const

/**
 * The API with `servers` set: `baseUrl` (PUBLIC_BASE_URL, or where the server listens), else `/`, the origin the
 * document is served from (a relative URL, allowed by OpenAPI 3.1).
 */
export const withServers = <Id extends string, Groups extends HttpApiGroup.Constraint>(
  api: HttpApi.HttpApi<Id, Groups>,
  baseUrl: string | undefined
): HttpApi.HttpApi<Id, Groups> => api.annotate(OpenApi.Servers, [{ url: baseUrl ?? "/" }])

/** The title of the system group, which the document's own routes share. */
export const systemTag = "System"

/** What `/openapi.json` answers: the document itself, a JSON object (no envelope). */
const openApiDocumentSchema = {
  type: "object",
  description: "This OpenAPI 3.1 document.",
  properties: { openapi: { type: "string" }, info: { type: "object" }, paths: { type: "object" } },
  required: ["openapi", "info", "paths"]
}

/**
 * The two routes that serve the document itself (`/openapi.json`, `/docs`) are not endpoints of the definition
 * (HttpApiBuilder and Scalar serve them), so the document lists them here: it lists every route the server answers.
 */
export const withDocumentRoutes = (spec: Record<string, unknown>): Record<string, unknown> => {
  const paths = (spec["paths"] ?? {}) as Record<string, unknown>
  const route = (operationId: string, summary: string, contentType: string, description: string, schema: unknown) => ({
    get: {
      tags: [systemTag],
      operationId,
      summary,
      security: [],
      responses: { "200": { description, content: { [contentType]: { schema } } } }
    }
  })
  return {
    ...spec,
    paths: {
      ...paths,
      "/openapi.json": route("system.openApi", "This OpenAPI 3.1 document", "application/json", "The raw document (no envelope).", openApiDocumentSchema),
      "/docs": route("system.docs", "Interactive API reference", "text/html", "An HTML page rendering this document.", { type: "string" })
    }
  }
}

/**
 * One tag per title, compared without case: several groups may share a tag (the organiser's catalog, artists and
 * engagements are "Organiser"), and HttpApi lists a tag per group. The first keeps its place and its description.
 */
export const withSharedTags = (spec: Record<string, unknown>): Record<string, unknown> => {
  const tags = spec["tags"]
  if (!Array.isArray(tags)) return spec
  const seen = new Set<unknown>()
  return {
    ...spec,
    tags: tags.filter((tag: unknown) => {
      const name = typeof tag === "object" && tag !== null ? Reflect.get(tag, "name") : undefined
      const key = typeof name === "string" ? name.toLowerCase() : name
      if (seen.has(key)) return false
      seen.add(key)
      return true
    })
  }
}

/**
 * HTTP security schemes named in lower case (`bearer`): the name is case-insensitive, but Scalar recognises only
 * the lower-case one and shows Basic credentials in the samples of routes whose scheme is `Bearer`.
 */
export const withLowerCaseSchemes = (spec: Record<string, unknown>): Record<string, unknown> => {
  const components = spec["components"]
  if (typeof components !== "object" || components === null) return spec
  const schemes: unknown = Reflect.get(components, "securitySchemes")
  if (typeof schemes !== "object" || schemes === null) return spec
  const lowered = Object.fromEntries(Object.entries(schemes).map(([name, scheme]: [string, unknown]) => {
    if (typeof scheme !== "object" || scheme === null) return [name, scheme]
    const value: unknown = Reflect.get(scheme, "scheme")
    return [name, typeof value === "string" ? { ...scheme, scheme: value.toLowerCase() } : scheme]
  }))
  return { ...spec, components: { ...components, securitySchemes: lowered } }
}

/** The API's one document transform (an API takes one): shared tags, lower-case schemes, the document's own routes. */
export const shapeDocument = (spec: Record<string, unknown>): Record<string, unknown> =>
  withDocumentRoutes(withLowerCaseSchemes(withSharedTags(spec)))
