/** Every route template the server answers, to tell 404 from 405 and to log templates, never raw paths. */
import { HttpApi, type HttpApiGroup } from "effect/http-api"

export interface RouteEntry {
  readonly method: string
  /** As in the definition: `/public/forms/:token/submissions/:submissionId`. */
  readonly template: string
}

interface Compiled {
  readonly template: string
  readonly pattern: RegExp
  readonly methods: Set<string>
}

export type RouteMatch =
  | { readonly _tag: "Found"; readonly template: string }
  | { readonly _tag: "MethodNotAllowed"; readonly template: string; readonly allow: ReadonlyArray<string> }
  | { readonly _tag: "NotFound" }

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

const compile = (template: string): RegExp =>
  new RegExp(
    "^" + template.split("/").map((segment) => (segment.startsWith(":") ? "[^/]+" : escape(segment))).join("/") + "$"
  )

/** The path of a request URL, without query or fragment. */
export const pathOf = (url: string): string => {
  const end = url.search(/[?#]/)
  return end < 0 ? url : url.slice(0, end)
}

export class RouteCatalogue {
  private readonly compiled: ReadonlyArray<Compiled>

  constructor(entries: ReadonlyArray<RouteEntry>) {
    const byTemplate = new Map<string, Compiled>()
    for (const { method, template } of entries) {
      const existing = byTemplate.get(template)
      if (existing === undefined) {
        byTemplate.set(template, { template, pattern: compile(template), methods: new Set([method]) })
      } else {
        existing.methods.add(method)
      }
    }
    // Static templates win over parametrised ones, as in the router.
    this.compiled = [...byTemplate.values()].sort((a, b) => paramCount(a.template) - paramCount(b.template))
  }

  match(method: string, url: string): RouteMatch {
    const path = pathOf(url)
    const wanted = method === "HEAD" ? "GET" : method
    let candidate: Compiled | undefined
    for (const route of this.compiled) {
      if (!route.pattern.test(path)) continue
      if (route.methods.has(wanted)) return { _tag: "Found", template: route.template }
      candidate ??= route
    }
    if (candidate === undefined) return { _tag: "NotFound" }
    const allow = [...candidate.methods]
    if (allow.includes("GET")) allow.push("HEAD")
    return { _tag: "MethodNotAllowed", template: candidate.template, allow: allow.sort() }
  }

  /** The endpoints of an HttpApi definition, plus routes served beside it. */
  static fromApi<Id extends string, Groups extends HttpApiGroup.Constraint>(
    api: HttpApi.HttpApi<Id, Groups>,
    extra: ReadonlyArray<RouteEntry> = []
  ): RouteCatalogue {
    const entries: Array<RouteEntry> = [...extra]
    HttpApi.reflect(api, {
      onGroup: () => {},
      onEndpoint: ({ endpoint }) => entries.push({ method: endpoint.method, template: endpoint.path })
    })
    return new RouteCatalogue(entries)
  }
}

const paramCount = (template: string) => template.split("/").filter((s) => s.startsWith(":")).length
