/**
 * The load driver: C loops, each running complete visitor flows back to back over its own
 * keep-alive connection (undici Pool), for a warm-up then a measured window.
 */
import { randomUUID } from "node:crypto"
import { Pool } from "undici"
import { benchToken, expectedStatus, flowValues, type Step, steps } from "./flow.js"
import { Samples } from "./stats.js"
import { type AddressFamily, visitorAddress } from "./visitors.js"

export interface LoadOptions {
  readonly baseUrl: string
  readonly concurrency: number
  readonly warmupMs: number
  readonly durationMs: number
  readonly token?: string
  /**
   * Real traffic: each flow sends X-Forwarded-For with its own visitor address of this family (the server
   * trusts one hop). Unset: every flow comes from the driver's own address (the stress variant).
   */
  readonly visitors?: AddressFamily
  /** Called when the measured window opens and when it closes (CPU accounting). */
  readonly onMeasureStart?: () => void
  readonly onMeasureEnd?: () => void
}

export interface LoadResult {
  readonly concurrency: number
  /** The measured window, in milliseconds. */
  readonly elapsedMs: number
  /** Flows whose five steps all answered as expected inside the window. */
  readonly flows: number
  /** Requests answered inside the window, whatever their status. */
  readonly requests: number
  readonly errors: number
  /** "step status" (or "step network") → count, inside the window. */
  readonly errorKinds: Record<string, number>
  /** The first few unexpected answers, for diagnosis. */
  readonly errorSamples: ReadonlyArray<string>
  readonly latencies: Record<Step | "save" | "flow", Samples>
}

interface Answer {
  readonly status: number
  readonly body: string
}

const jsonHeaders = { "content-type": "application/json" }

export const runLoad = async (options: LoadOptions): Promise<LoadResult> => {
  const token = encodeURIComponent(options.token ?? benchToken)
  const base = `/public/forms/${token}/submissions`
  const pool = new Pool(options.baseUrl, {
    connections: options.concurrency,
    pipelining: 1,
    keepAliveTimeout: 60_000,
    headersTimeout: 60_000,
    bodyTimeout: 60_000
  })
  const latencies = {
    create: new Samples(), save1: new Samples(), save2: new Samples(), save3: new Samples(),
    submit: new Samples(), save: new Samples(), flow: new Samples()
  }
  const errorKinds: Record<string, number> = {}
  const errorSamples: Array<string> = []
  let flows = 0
  let requests = 0
  let errors = 0
  let flowNumber = 0

  const started = performance.now()
  const measureFrom = started + options.warmupMs
  const measureTo = measureFrom + options.durationMs
  const inWindow = (t: number) => t >= measureFrom && t <= measureTo

  const call = async (method: "POST" | "PUT", path: string, body: unknown, headers: Record<string, string>): Promise<Answer> => {
    const response = await pool.request({ method, path, headers, body: JSON.stringify(body) })
    return { status: response.statusCode, body: await response.body.text() }
  }

  const fail = (step: Step, kind: string, detail: string, at: number) => {
    if (!inWindow(at)) return
    errors++
    const key = `${step} ${kind}`
    errorKinds[key] = (errorKinds[key] ?? 0) + 1
    if (errorSamples.length < 5) errorSamples.push(`${key}: ${detail.slice(0, 300)}`)
  }

  /** One step: true when it answered as expected. */
  const step = async (
    name: Step,
    method: "POST" | "PUT",
    path: string,
    body: unknown,
    headers: Record<string, string>
  ): Promise<Answer | undefined> => {
    const t0 = performance.now()
    let answer: Answer
    try {
      answer = await call(method, path, body, headers)
    } catch (error) {
      fail(name, "network", error instanceof Error ? error.message : String(error), performance.now())
      return undefined
    }
    const t1 = performance.now()
    if (inWindow(t1)) {
      requests++
      latencies[name].push(t1 - t0)
      if (name.startsWith("save")) latencies.save.push(t1 - t0)
    }
    if (answer.status !== expectedStatus[name]) {
      fail(name, String(answer.status), answer.body, t1)
      return undefined
    }
    return answer
  }

  const flow = async (): Promise<void> => {
    const n = flowNumber++
    const key = randomUUID()
    const headers = options.visitors === undefined
      ? jsonHeaders
      : { ...jsonHeaders, "x-forwarded-for": visitorAddress(n, options.visitors) }
    const t0 = performance.now()
    const created = await step("create", "POST", base, { idempotency_key: key }, headers)
    if (created === undefined) return
    const id = (JSON.parse(created.body) as { data: { id: string } }).data.id
    const groups = flowValues(n, key)
    for (let i = 0; i < groups.length; i++) {
      const name = steps[i + 1] as Step
      if (await step(name, "PUT", `${base}/${id}`, { values: groups[i] }, headers) === undefined) return
    }
    if (await step("submit", "POST", `${base}/${id}/submit`, {}, headers) === undefined) return
    const t1 = performance.now()
    if (inWindow(t1)) {
      flows++
      latencies.flow.push(t1 - t0)
    }
  }

  const loop = async (): Promise<void> => {
    while (performance.now() < measureTo) await flow()
  }

  const timers = [
    setTimeout(() => options.onMeasureStart?.(), options.warmupMs),
    setTimeout(() => options.onMeasureEnd?.(), options.warmupMs + options.durationMs)
  ]
  try {
    await Promise.all(Array.from({ length: options.concurrency }, loop))
  } finally {
    for (const timer of timers) clearTimeout(timer)
    await pool.close()
  }
  return {
    concurrency: options.concurrency,
    elapsedMs: options.durationMs,
    flows,
    requests,
    errors,
    errorKinds,
    errorSamples,
    latencies
  }
}

/**
 * Runs `count` flows one after another and calls `between` after every step (round-trip counting); with
 * `visitors`, flow n comes from visitor address `visitors.first + n`.
 */
export const runSteps = async (
  baseUrl: string,
  count: number,
  between: (step: Step, status: number) => Promise<void>,
  visitors?: { readonly family: AddressFamily; readonly first: number }
): Promise<void> => {
  const pool = new Pool(baseUrl, { connections: 1 })
  const base = `/public/forms/${encodeURIComponent(benchToken)}/submissions`
  try {
    for (let n = 0; n < count; n++) {
      const headers = visitors === undefined
        ? jsonHeaders
        : { ...jsonHeaders, "x-forwarded-for": visitorAddress(visitors.first + n, visitors.family) }
      const call = async (method: "POST" | "PUT", path: string, body: unknown) => {
        const response = await pool.request({ method, path, headers, body: JSON.stringify(body) })
        return { status: response.statusCode, body: await response.body.text() }
      }
      const key = randomUUID()
      const created = await call("POST", base, { idempotency_key: key })
      await between("create", created.status)
      const id = (JSON.parse(created.body) as { data: { id: string } }).data.id
      const groups = flowValues(n, key)
      for (let i = 0; i < groups.length; i++) {
        const saved = await call("PUT", `${base}/${id}`, { values: groups[i] })
        await between(steps[i + 1] as Step, saved.status)
      }
      const submitted = await call("POST", `${base}/${id}/submit`, {})
      await between("submit", submitted.status)
    }
  } finally {
    await pool.close()
  }
}
