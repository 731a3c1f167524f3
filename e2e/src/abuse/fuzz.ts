/** Runs fast-check generated requests against a route with some concurrency and checks every answer. */
import fc from "fast-check"
import type { Pool } from "undici"
import { type Answer, answerProblem, dataOf, errorCodeOf } from "../support/envelope.js"
import { type Outcome, runConcurrently, send } from "../support/http.js"
import { materialize, type RequestSpec } from "./requests.js"
import type { Route } from "./routes.js"

export interface Failure {
  readonly problem: string
  readonly request: string
}

export interface FuzzReport {
  readonly route: string
  readonly runs: number
  readonly seconds: number
  readonly statuses: Readonly<Record<string, number>>
  readonly failures: ReadonlyArray<Failure>
  readonly seed: number
}

/** Small batches: generating many requests at once would block the event loop we measure. */
const batchSize = 25

const describeRequest = (spec: RequestSpec): string => {
  const b = spec.body
  const body = b.kind === "text" ? JSON.stringify(b.text.slice(0, 300)) : b.kind === "bytes" ? `${b.bytes.length} bytes` : JSON.stringify(b)
  return `${spec.method} ${spec.path.slice(0, 200)} headers=${JSON.stringify(spec.headers).slice(0, 300)} body=${body}`
}

/** A 2xx is `{ data }`; unknown slugs never come back in `values`. */
const valuesProblem = (route: Route, text: string): string | undefined => {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return "a 2xx answer that is not JSON"
  }
  if (typeof body !== "object" || body === null || !("data" in body)) return "a 2xx answer that is not { data }"
  const data = dataOf({ status: 200, headers: {}, text })
  const values = data?.["values"]
  if (route.slugs === undefined || typeof values !== "object" || values === null) return undefined
  const unknown = Object.keys(values).filter((k) => !route.slugs?.includes(k))
  return unknown.length > 0 ? `values hold unknown keys ${JSON.stringify(unknown)}` : undefined
}

/**
 * A refused upload (413/415) closes the connection; a client still sending its body may see the
 * close before the answer. That is the server refusing, not failing.
 */
const refusedUpload = (spec: RequestSpec, error: string): boolean =>
  spec.body.kind !== "none" && /other side closed|ECONNRESET|EPIPE|SocketError|socket hang up/i.test(error)

/** Raw bytes above 0x7E in the request target: Node's HTTP parser refuses them before any handler. */
export const rawNonAsciiPath = (spec: RequestSpec): boolean => /[^\x21-\x7e]/.test(spec.path)

/** The answer to a request Node's parser refuses (the server's clientError listener): 400 BAD_REQUEST. */
const parserRefusal = (answer: Answer): boolean => answer.status === 400 && errorCodeOf(answer) === "BAD_REQUEST"

/**
 * A page of CONTRACT §14 (`/f/{token}`, `/portal/{token}`) answers an unknown or gone token with an HTML page
 * of that status, by design: a random path that lands there must get that page, not the JSON envelope. The
 * router matches paths case-insensitively, so `/F/x` is a form page too.
 */
const pageRoute = /^\/(f|portal)\//i
const pageProblem = (answer: Answer): string | undefined => {
  if (answer.status !== 404 && answer.status !== 410) return `page answered ${answer.status}`
  const type = answer.headers["content-type"]
  return typeof type === "string" && /^text\/html\b/.test(type) ? undefined : `page content-type ${String(type)}`
}

const check = (route: Route, spec: RequestSpec, outcome: Outcome): string | undefined => {
  if (outcome._tag === "Failed") return refusedUpload(spec, outcome.error) ? undefined : `transport: ${outcome.error}`
  if (parserRefusal(outcome) && !rawNonAsciiPath(spec)) return "Node's parser refused a request with an ASCII path"
  const html = /^text\/html\b/.test(String(outcome.headers["content-type"]))
  if (spec.method === "GET" && pageRoute.test(spec.path) && html && outcome.status >= 400) return pageProblem(outcome)
  const problem = answerProblem(outcome, spec.method)?.concat(` (status ${outcome.status}: ${outcome.text.slice(0, 200)})`)
  if (problem !== undefined) return problem
  const success = outcome.status >= 200 && outcome.status < 300
  if (outcome.status === 204) return outcome.text === "" ? undefined : "a 204 answer with a body"
  if (success && spec.method !== "HEAD" && route.rawSuccess !== true) return valuesProblem(route, outcome.text)
  return undefined
}

export const fuzzRoute = async (
  pool: Pool,
  route: Route,
  runs: number,
  concurrency: number,
  seed: number
): Promise<FuzzReport> => {
  const started = performance.now()
  const statuses: Record<string, number> = {}
  const failures: Array<Failure> = []
  for (let done = 0, batch = 0; done < runs; done += batchSize, batch++) {
    const specs = fc.sample(route.requests, { numRuns: Math.min(batchSize, runs - done), seed: seed + batch })
    await runConcurrently(specs.length, concurrency, async (i) => {
      const spec = specs[i]
      if (spec === undefined) return
      const first = await send(pool, materialize(spec), 20_000)
      // A kept-alive socket the server closed as the request went out fails in transport: any client retries that once.
      const outcome = first._tag === "Failed" ? await send(pool, materialize(spec), 20_000) : first
      const label = outcome._tag === "Failed" ? "transport" : parserRefusal(outcome) ? "400 BAD_REQUEST by Node's parser" : String(outcome.status)
      statuses[label] = (statuses[label] ?? 0) + 1
      const problem = check(route, spec, outcome)
      if (problem !== undefined && failures.length < 10) failures.push({ problem, request: describeRequest(spec) })
    })
  }
  return { route: route.name, runs, seconds: (performance.now() - started) / 1000, statuses, failures, seed }
}
