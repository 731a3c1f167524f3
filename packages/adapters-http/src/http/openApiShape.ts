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

/**
 * The two routes that serve the document itself (`/openapi.json`, `/docs`) are not endpoints of the definition
 * (HttpApiBuilder and Scalar serve them), so the document lists them here: it lists every route the server answers.
 */
export const withDocumentRoutes = (spec: Record<string, unknown>): Record<string, unknown> => {
  const paths = (spec["paths"] ?? {}) as Record<string, unknown>
  const route = (operationId: string, summary: string, contentType: string, description: string) => ({
    get: {
      tags: ["system"],
      operationId,
      summary,
      security: [],
      responses: { "200": { description, content: { [contentType]: { schema: { type: "string" } } } } }
    }
  })
  return {
    ...spec,
    paths: {
      ...paths,
      "/openapi.json": route("system.openApi", "This OpenAPI 3.1 document", "application/json", "The raw document (no envelope)."),
      "/docs": route("system.docs", "Interactive API reference", "text/html", "An HTML page rendering this document.")
    }
  }
}

/**
 * One tag per title: several groups may share a tag (the organiser's catalog, artists and engagements are
 * "Organiser"), and HttpApi lists a tag per group. The first keeps its place and its description.
 */
export const withSharedTags = (spec: Record<string, unknown>): Record<string, unknown> => {
  const tags = spec["tags"]
  if (!Array.isArray(tags)) return spec
  const seen = new Set<unknown>()
  return {
    ...spec,
    tags: tags.filter((tag: unknown) => {
      const name = typeof tag === "object" && tag !== null ? Reflect.get(tag, "name") : undefined
      if (seen.has(name)) return false
      seen.add(name)
      return true
    })
  }
}

/** The API's one document transform (an API takes one): shared tags, then the document's own routes. */
export const shapeDocument = (spec: Record<string, unknown>): Record<string, unknown> =>
  withDocumentRoutes(withSharedTags(spec))
