/**
 * Visitor flows under faults: create → save → submit with unique values, every answer recorded.
 * A flow cut short (503, or the server gone) is finished later the way a client would: the same
 * idempotency key again, then the steps that were not acknowledged.
 */
import type { Pool } from "undici"
import { answerProblem, dataOf, errorCodeOf, errorProblem } from "../support/envelope.js"
import { type Outcome, sendJson, sleep } from "../support/http.js"
import { fx } from "../support/paths.js"

export type Step = "create" | "save" | "submit"

export interface Flow {
  readonly key: string
  readonly email: string
  readonly note: string
  id: string | undefined
  /** Acknowledged steps (2xx): their effects must be in the database. */
  readonly acked: Set<Step>
  /** Steps answered 503 or cut off in transport: their effect may or may not have happened. */
  readonly unsure: Set<Step>
  /** Set when the retry protocol ran: the submit's status then (200, or 409 after an unsure submit). */
  retried?: number
}

export interface LoadStats {
  readonly flows: Array<Flow>
  readonly statuses: Record<string, number>
  /** Answers that break a promise: a 5xx other than 503, a wrong envelope, an unexpected status. */
  readonly problems: Array<string>
  maxMs: number
  /** Requests that got no answer within the deadline (a hang). */
  timeouts: number
}

export const newStats = (): LoadStats => ({ flows: [], statuses: {}, problems: [], maxMs: 0, timeouts: 0 })

const base = `/public/forms/${fx.loadToken}/submissions`
/** Every answer must come within this; the pool's timeouts are 15 s + slack. */
export const answerDeadlineMs = 15_000

const newFlow = (): Flow => {
  const key = crypto.randomUUID()
  return { key, email: `${key}@e2e.example.org`, note: `note ${key}`, id: undefined, acked: new Set(), unsure: new Set() }
}

const record = (stats: LoadStats, step: Step, outcome: Outcome, expected: ReadonlyArray<number>, serverDown: () => boolean) => {
  stats.maxMs = Math.max(stats.maxMs, outcome.ms)
  if (outcome._tag === "Failed") {
    stats.statuses["transport"] = (stats.statuses["transport"] ?? 0) + 1
    if (/timeout/i.test(outcome.error)) stats.timeouts++
    if (!serverDown()) stats.problems.push(`${step}: ${outcome.error} while the server was up`)
    return
  }
  const label = `${step} ${outcome.status}`
  stats.statuses[label] = (stats.statuses[label] ?? 0) + 1
  const problem = outcome.status === 503 ? errorProblem(outcome) : answerProblem(outcome, "POST")
  if (outcome.status === 503 && problem === undefined && errorCodeOf(outcome) === "UNAVAILABLE") return
  if (problem !== undefined || !expected.includes(outcome.status)) {
    stats.problems.push(`${step} answered ${outcome.status}: ${problem ?? outcome.text.slice(0, 200)}`)
  }
  if (outcome.ms > answerDeadlineMs) stats.problems.push(`${step} took ${Math.round(outcome.ms)} ms`)
}

const ok = (outcome: Outcome): boolean => outcome._tag === "Answer" && outcome.status >= 200 && outcome.status < 300

const create = (pool: Pool, flow: Flow) =>
  sendJson(pool, "POST", base, { idempotency_key: flow.key, values: { full_name: "Fault Flow" } }, answerDeadlineMs + 5_000)
const save = (pool: Pool, flow: Flow) =>
  sendJson(pool, "PUT", `${base}/${flow.id ?? ""}`, { values: { shirt: "M", note: flow.note } }, answerDeadlineMs + 5_000)
const submit = (pool: Pool, flow: Flow) =>
  sendJson(pool, "POST", `${base}/${flow.id ?? ""}/submit`, { values: { email: flow.email } }, answerDeadlineMs + 5_000)

/** One flow; stops at the first step that is not acknowledged. */
const runFlow = async (pool: Pool, stats: LoadStats, serverDown: () => boolean): Promise<void> => {
  const flow = newFlow()
  stats.flows.push(flow)
  const steps: ReadonlyArray<readonly [Step, (pool: Pool, flow: Flow) => Promise<Outcome>, ReadonlyArray<number>]> = [
    ["create", create, [201]],
    ["save", save, [200]],
    ["submit", submit, [200]]
  ]
  for (const [step, send, expected] of steps) {
    const outcome = await send(pool, flow)
    record(stats, step, outcome, expected, serverDown)
    if (!ok(outcome)) {
      flow.unsure.add(step)
      return
    }
    flow.acked.add(step)
    if (step === "create") {
      const id = outcome._tag === "Answer" ? dataOf(outcome)?.["id"] : undefined
      flow.id = typeof id === "string" ? id : undefined
    }
  }
}

/** `concurrency` clients running flows until `stop()`; a failed flow backs off briefly. */
export const runLoad = async (pool: Pool, stats: LoadStats, concurrency: number, stop: () => boolean, serverDown: () => boolean = () => false) => {
  const worker = async () => {
    while (!stop()) {
      const before = stats.flows.length
      await runFlow(pool, stats, serverDown)
      const last = stats.flows[before]
      if (last !== undefined && last.unsure.size > 0) await sleep(500)
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
}

/**
 * The client's retry of a flow cut short: the same key again (same id when one was acknowledged),
 * then save and submit as needed. Up to `attempts` tries per step, a second apart.
 */
export const finishFlow = async (pool: Pool, flow: Flow, attempts = 5): Promise<string | undefined> => {
  const attempt = async (send: () => Promise<Outcome>, accept: ReadonlyArray<number>): Promise<Outcome | string> => {
    let last: Outcome | undefined
    for (let i = 0; i < attempts; i++) {
      last = await send()
      if (last._tag === "Answer" && accept.includes(last.status)) return last
      await sleep(1_000)
    }
    return `gave up: ${JSON.stringify(last).slice(0, 300)}`
  }
  const created = await attempt(() => create(pool, flow), [200, 201])
  if (typeof created === "string") return `create again: ${created}`
  const data = dataOf(created._tag === "Answer" ? created : { status: 0, headers: {}, text: "" })
  const id = data?.["id"]
  if (typeof id !== "string") return "create again: no id"
  if (flow.id !== undefined && flow.id !== id) return `create again gave another id (${id} instead of ${flow.id})`
  if (flow.acked.has("create") && created._tag === "Answer" && created.status !== 200) return "an acknowledged draft was created anew"
  flow.id = id
  if (data?.["status"] === "draft" && !flow.acked.has("save")) {
    const saved = await attempt(() => save(pool, flow), [200])
    if (typeof saved === "string") return `save again: ${saved}`
    flow.acked.add("save")
  }
  const submitted = await attempt(() => submit(pool, flow), [200, 409])
  if (typeof submitted === "string") return `submit again: ${submitted}`
  const status = submitted._tag === "Answer" ? submitted.status : 0
  if (status === 409 && !flow.unsure.has("submit")) return "409 on a submission whose submit was never attempted"
  flow.retried = status
  return undefined
}
