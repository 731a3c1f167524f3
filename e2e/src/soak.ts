/**
 * Soak: mixed visitor flows at C=32 for SOAK_MINUTES (default 10) against our server as a process on
 * a fresh database, sampling its RSS every SOAK_SAMPLE_SECONDS. Reports RSS at minute 2 (20 % of the
 * run) and at the end, each the median of a tenth of the run (must be within 10 %), errors (must be 0)
 * and flows/s. `pnpm bench:soak`.
 */
import { availableParallelism, loadavg, totalmem } from "node:os"
import type { Pool } from "undici"
import { dataOf, errorCodeOf } from "./support/envelope.js"
import { makePool, type Outcome, send, sleep } from "./support/http.js"
import { fx, testDatabaseUrl } from "./support/paths.js"
import { cpuSecondsOf, freePort, rssOf, serverCommand, startServerProcess } from "./support/serverProcess.js"
import { createDatabase, dropDatabase, uniqueDatabaseName } from "./support/sql.js"

const number = (name: string, fallback: number): number => {
  const n = Number(process.env[name])
  return Number.isFinite(n) && n > 0 ? n : fallback
}
const minutes = number("SOAK_MINUTES", 10)
const concurrency = number("SOAK_CONCURRENCY", 32)
const sampleSeconds = number("SOAK_SAMPLE_SECONDS", 5)
const adminUrl = testDatabaseUrl ?? "postgres://postgres@127.0.0.1:5432/postgres"
const form = `/public/forms/${fx.loadToken}`

interface Counters {
  flows: number
  requests: number
  errors: number
  readonly samples: Array<string>
  readonly kinds: Record<string, number>
}

/** Each flow comes from a client address of its own (TRUST_PROXY_HOPS=1), as real visitors do. */
const visitor = (): Record<string, string> => ({
  "content-type": "application/json",
  "x-forwarded-for": Array.from({ length: 4 }, () => Math.floor(Math.random() * 256)).join(".")
})

const expectStatus = (c: Counters, outcome: Outcome, status: number, code?: string): Outcome | undefined => {
  c.requests++
  const ok = outcome._tag === "Answer" && outcome.status === status && (code === undefined || errorCodeOf(outcome) === code)
  if (ok) return outcome
  c.errors++
  if (c.samples.length < 20) c.samples.push(outcome._tag === "Answer" ? `${outcome.status} ${outcome.text.slice(0, 200)}` : outcome.error)
  return undefined
}

const post = (pool: Pool, path: string, headers: Record<string, string>, body: unknown, method = "POST") =>
  send(pool, { method, path, headers, body: JSON.stringify(body) })

const idOf = (outcome: Outcome | undefined): string | undefined => {
  const id = outcome?._tag === "Answer" ? dataOf(outcome)?.["id"] : undefined
  return typeof id === "string" ? id : undefined
}

/** create → save → save → submit, with a unique email. */
const fullFlow = async (pool: Pool, c: Counters) => {
  const h = visitor()
  const key = crypto.randomUUID()
  const id = idOf(expectStatus(c, await post(pool, `${form}/submissions`, h, { idempotency_key: key, values: { full_name: "Soak" } }), 201))
  if (id === undefined) return
  if (expectStatus(c, await post(pool, `${form}/submissions/${id}`, h, { values: { shirt: "M" } }, "PUT"), 200) === undefined) return
  if (expectStatus(c, await post(pool, `${form}/submissions/${id}`, h, { values: { note: key, roles: ["bar"] } }, "PUT"), 200) === undefined) return
  expectStatus(c, await post(pool, `${form}/submissions/${id}/submit`, h, { values: { email: `${key}@soak.example.org`, hours: 4 } }), 200)
}

/** A create replayed with the same key answers 200 with the same draft. */
const replayFlow = async (pool: Pool, c: Counters) => {
  const h = visitor()
  const body = { idempotency_key: crypto.randomUUID(), values: { full_name: "Replay" } }
  const first = idOf(expectStatus(c, await post(pool, `${form}/submissions`, h, body), 201))
  const again = idOf(expectStatus(c, await post(pool, `${form}/submissions`, h, body), 200))
  if (first !== again) c.errors++
}

const readFlow = async (pool: Pool, c: Counters) => {
  for (const path of [form, `${form}/time-slots`, `${form}/sections`]) expectStatus(c, await send(pool, { method: "GET", path }), 200)
}

/** A submit with an invalid email answers 422; unknown tokens and ids answer 404. */
const refusedFlow = async (pool: Pool, c: Counters) => {
  const h = visitor()
  const id = idOf(expectStatus(c, await post(pool, `${form}/submissions`, h, { idempotency_key: crypto.randomUUID() }), 201))
  if (id !== undefined) {
    expectStatus(c, await post(pool, `${form}/submissions/${id}/submit`, h, { values: { full_name: "X Y", email: "nope" } }), 422, "VALIDATION_FAILED")
  }
  expectStatus(c, await send(pool, { method: "GET", path: "/public/forms/no-such-token-000000000" }), 404, "FORM_NOT_FOUND")
  expectStatus(c, await send(pool, { method: "GET", path: `/public/forms/${fx.closedToken}` }), 200)
}

const flows = [[50, "full", fullFlow], [15, "replay", replayFlow], [20, "read", readFlow], [15, "refused", refusedFlow]] as const

const pick = () => {
  let r = Math.random() * 100
  for (const flow of flows) {
    if ((r -= flow[0]) < 0) return flow
  }
  return flows[0]
}

const mb = (bytes: number | undefined) => (bytes === undefined ? "?" : (bytes / 1024 / 1024).toFixed(1))

const main = async () => {
  const name = uniqueDatabaseName("soak")
  const url = await createDatabase(adminUrl, name)
  const server = await startServerProcess({ databaseUrl: url, port: await freePort(), env: { TRUST_PROXY_HOPS: "1", SUBMIT_RATE_LIMIT_PER_HOUR: "10" } })
  const pool = makePool(server.origin, concurrency)
  const c: Counters = { flows: 0, requests: 0, errors: 0, samples: [], kinds: {} }
  const rss: Array<{ readonly s: number; readonly bytes: number; readonly cpuS: number; readonly flows: number }> = []
  const started = Date.now()
  const endAt = started + minutes * 60_000
  console.log(`soak: ${minutes} min at C=${concurrency}, ${serverCommand().label}, database ${name}; ${availableParallelism()} cores, ${mb(totalmem())} MB`)
  const sampler = (async () => {
    while (Date.now() < endAt) {
      const bytes = await rssOf(server.pid)
      const cpuS = await cpuSecondsOf(server.pid)
      if (bytes !== undefined) rss.push({ s: (Date.now() - started) / 1000, bytes, cpuS: cpuS ?? 0, flows: c.flows })
      if (rss.length % Math.max(1, Math.round(60 / sampleSeconds)) === 1) {
        console.log(`soak: ${Math.round((Date.now() - started) / 1000)} s, ${c.flows} flows, ${c.errors} errors, RSS ${mb(bytes)} MB`)
      }
      await sleep(sampleSeconds * 1000)
    }
  })()
  const worker = async () => {
    while (Date.now() < endAt) {
      const [, kind, run] = pick()
      await run(pool, c)
      c.flows++
      c.kinds[kind] = (c.kinds[kind] ?? 0) + 1
    }
  }
  await Promise.all([sampler, ...Array.from({ length: concurrency }, worker)])
  const seconds = (Date.now() - started) / 1000
  await pool.close()
  await server.stop()
  await dropDatabase(adminUrl, name)
  // RSS swings with garbage collection: each figure is the median of the samples in a window of a
  // tenth of the run (a minute of ten) ending at minute 2 (20 %) and at the end.
  const windowS = seconds / 10
  const medianIn = (from: number, to: number) => {
    const inside = rss.filter((x) => x.s >= from && x.s <= to).map((x) => x.bytes).sort((a, b) => a - b)
    return inside[Math.floor(inside.length / 2)] ?? 0
  }
  const early = { s: seconds * 0.2, bytes: medianIn(seconds * 0.2 - windowS, seconds * 0.2) }
  const late = { s: seconds, bytes: medianIn(seconds - windowS, seconds) }
  const growth = (late.bytes - early.bytes) / early.bytes
  const peak = Math.max(...rss.map((x) => x.bytes))
  // Server CPU per flow in the first and the last tenth: flat means a slowdown came from outside (a busy machine).
  const cpuPerFlow = (from: number, to: number) => {
    const inside = rss.filter((x) => x.s >= from && x.s <= to)
    const a = inside[0]
    const b = inside.at(-1)
    return a === undefined || b === undefined || b.flows === a.flows ? 0 : +(((b.cpuS - a.cpuS) * 1000) / (b.flows - a.flows)).toFixed(2)
  }
  const flowsPerSecondIn = (from: number, to: number) => {
    const inside = rss.filter((x) => x.s >= from && x.s <= to)
    const a = inside[0]
    const b = inside.at(-1)
    return a === undefined || b === undefined || b.s === a.s ? 0 : +((b.flows - a.flows) / (b.s - a.s)).toFixed(1)
  }
  const result = {
    minutes, concurrency, seconds: Math.round(seconds), flows: c.flows, flowsPerSecond: +(c.flows / seconds).toFixed(1),
    requests: c.requests, requestsPerSecond: +(c.requests / seconds).toFixed(1), errors: c.errors, kinds: c.kinds,
    rssMb: { [`median ${Math.round(early.s - windowS)}-${Math.round(early.s)} s`]: +mb(early.bytes),
      [`median ${Math.round(late.s - windowS)}-${Math.round(late.s)} s`]: +mb(late.bytes), peak: +mb(peak) },
    rssGrowthPercent: +(growth * 100).toFixed(1),
    serverCpuMsPerFlow: { first: cpuPerFlow(0, windowS), last: cpuPerFlow(seconds - windowS, seconds) },
    flowsPerSecondWindows: { first: flowsPerSecondIn(0, windowS), last: flowsPerSecondIn(seconds - windowS, seconds) },
    loadAverage: loadavg().map((l) => +l.toFixed(1)), server: serverCommand().label, node: process.version, errorSamples: c.samples,
    rssSeriesMb: rss.map((x) => `${Math.round(x.s)}:${mb(x.bytes)}`).join(" ")
  }
  console.log(JSON.stringify(result, null, 2))
  const pass = c.errors === 0 && Math.abs(growth) <= 0.1
  const why = [
    ...(c.errors === 0 ? [] : [`${c.errors} errors`]),
    ...(growth > 0.1 ? [`RSS grew ${(growth * 100).toFixed(1)} %`] : []),
    ...(growth < -0.1 ? [`RSS fell ${(-growth * 100).toFixed(1)} % (outside ±10 %, though a fall is no leak)`] : [])
  ]
  console.log(pass ? "soak: PASS (0 errors, RSS within 10 %)" : `soak: FAIL: ${why.join("; ")}`)
  process.exitCode = pass ? 0 : 1
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
