/** Turning load results into the printed tables, the per-repetition ratios, the medians and the targets. */
import type { CpuWindow } from "./cpu.js"
import type { DrainMeasure } from "./backlog.js"
import type { RunRows } from "./database.js"
import type { LoadResult } from "./driver.js"
import type { ServerKind } from "./servers.js"
import { type LatencySummary, median, ratio, round, summarize } from "./stats.js"

export const latencyKeys = ["create", "save", "submit", "flow"] as const
/** Printed per run; the JSON also has each save apart. */
const jsonLatencyKeys = ["create", "save1", "save2", "save3", "save", "submit", "flow"] as const

export interface RunSummary {
  readonly server: ServerKind
  readonly concurrency: number
  readonly rep: number
  readonly flowsPerSec: number
  readonly requestsPerSec: number
  readonly flows: number
  readonly errors: number
  readonly errorKinds: Record<string, number>
  readonly errorSamples: ReadonlyArray<string>
  readonly latency: Record<(typeof jsonLatencyKeys)[number], LatencySummary>
  readonly peakRssMb: number
  /** The peak's parts: VmHWM when the server first answered, and the highest VmRSS after that (the load). */
  readonly rssStartupMb: number
  readonly rssAfterStartMb: number
  /** What the run left in its database (undefined when embedded): a check that the work really happened. */
  readonly rows: RunRows | undefined
  /** The server's CPU per completed flow (ms) and its CPU use in the window (% of one core). */
  readonly cpuMsPerFlow: number
  readonly cpuPct: number
  readonly machineBusyPct: number
  readonly loadAvg1: number
  /** CPU of the PostgreSQL backends of the server's database per completed flow (ms); NaN when embedded. */
  readonly dbCpuMsPerFlow: number
  /** The window alone, without the delivery of the events it left behind (equal when nothing was left). */
  readonly cpuMsPerFlowWindow: number
  readonly dbCpuMsPerFlowWindow: number
  /** Ours and the same-job reference: their event backlog and its drain (backlog.ts); undefined for the others. */
  readonly delivery: Delivery | undefined
}

export interface Delivery {
  readonly backlog: { readonly atOpen: number; readonly atClose: number }
  readonly drain: DrainMeasure
  /** The window's CPU with the delivery it left behind: what the CPU per flow figures use. */
  readonly withBacklog: { readonly cpuMs: number; readonly dbCpuMs: number }
}

export const summarizeRun = (
  server: ServerKind,
  rep: number,
  result: LoadResult,
  rss: { readonly peak: number; readonly startupMb: number; readonly afterStartMb: number },
  rows: RunRows | undefined,
  cpu: CpuWindow,
  dbCpuMs: number,
  delivery?: Delivery
): RunSummary => ({
  server,
  concurrency: result.concurrency,
  rep,
  flowsPerSec: result.flows / (result.elapsedMs / 1000),
  requestsPerSec: result.requests / (result.elapsedMs / 1000),
  flows: result.flows,
  errors: result.errors,
  errorKinds: result.errorKinds,
  errorSamples: result.errorSamples,
  latency: {
    create: summarize(result.latencies.create.values()),
    save1: summarize(result.latencies.save1.values()),
    save2: summarize(result.latencies.save2.values()),
    save3: summarize(result.latencies.save3.values()),
    save: summarize(result.latencies.save.values()),
    submit: summarize(result.latencies.submit.values()),
    flow: summarize(result.latencies.flow.values())
  },
  peakRssMb: rss.peak,
  rssStartupMb: rss.startupMb,
  rssAfterStartMb: rss.afterStartMb,
  rows,
  cpuMsPerFlow: (delivery?.withBacklog.cpuMs ?? cpu.serverCpuMs) / Math.max(1, result.flows),
  cpuPct: (cpu.serverCpuMs / result.elapsedMs) * 100,
  machineBusyPct: cpu.machineBusyPct,
  loadAvg1: cpu.loadAvg1,
  dbCpuMsPerFlow: (delivery?.withBacklog.dbCpuMs ?? dbCpuMs) / Math.max(1, result.flows),
  cpuMsPerFlowWindow: cpu.serverCpuMs / Math.max(1, result.flows),
  dbCpuMsPerFlowWindow: dbCpuMs / Math.max(1, result.flows),
  delivery
})

const pad = (s: string | number, n: number) => String(s).padStart(n)
const ms = (v: number) => pad(round(v, 1).toFixed(1), 7)

export const runLine = (r: RunSummary): string =>
  `${(r.server === "reference" ? "same-job" : r.server).padEnd(9)} C=${pad(r.concurrency, 2)} rep ${r.rep}: ${pad(round(r.flowsPerSec, 1).toFixed(1), 7)} flows/s ` +
  `${pad(round(r.requestsPerSec, 0), 6)} req/s  errors ${r.errors}  rss ${pad(round(r.peakRssMb, 0), 4)} MB (start-up ${round(r.rssStartupMb, 0)}, after ${round(r.rssAfterStartMb, 0)})  ` +
  `cpu ${pad(round(r.cpuMsPerFlow, 1).toFixed(1), 5)} ms/flow ${pad(round(r.cpuPct, 0), 3)}%  db ${pad(round(r.dbCpuMsPerFlow, 1).toFixed(1), 5)} ms/flow  machine ${pad(round(r.machineBusyPct, 0), 3)}% ` +
  `load ${round(r.loadAvg1, 1).toFixed(1)}` +
  (r.rows === undefined ? "" : `\n    rows: ${r.rows.submitted} submitted, ${r.rows.delivered} events delivered, ${r.rows.pending} pending, ` +
    `${r.rows.contacts} contacts, ${r.rows.limiterKeys} limiter keys; ` +
    (r.delivery === undefined
      ? "outbox not consumed"
      : `undelivered events ${r.delivery.backlog.atOpen} → ${r.delivery.backlog.atClose} over the window, ` +
        `${r.delivery.drain.events} delivered in ${round(r.delivery.drain.ms / 1000, 1)} s after the load` +
        `${r.delivery.drain.complete ? "" : " (NOT all: gave up)"} (window alone: cpu ${round(r.cpuMsPerFlowWindow, 1)}, ` +
        `db ${round(r.dbCpuMsPerFlowWindow, 1)} ms/flow)`)) + `\n    ` +
  latencyKeys.map((k) => `${k} p50/p95/p99 ${ms(r.latency[k].p50)}/${ms(r.latency[k].p95)}/${ms(r.latency[k].p99)}`).join("  ")

const pick = (runs: ReadonlyArray<RunSummary>, server: ServerKind, c: number) =>
  runs.filter((r) => r.server === server && r.concurrency === c).sort((a, b) => a.rep - b.rep)

/** Medians over a server's repetitions at one concurrency. */
const medians = (runs: ReadonlyArray<RunSummary>) => ({
  runs: runs.length,
  flows_per_s: round(median(runs.map((r) => r.flowsPerSec))),
  requests_per_s: round(median(runs.map((r) => r.requestsPerSec))),
  errors: runs.reduce((n, r) => n + r.errors, 0),
  peak_rss_mb: round(Math.max(...runs.map((r) => r.peakRssMb)), 1),
  cpu_ms_per_flow: round(median(runs.map((r) => r.cpuMsPerFlow))),
  cpu_pct_of_one_core: round(median(runs.map((r) => r.cpuPct)), 1),
  db_cpu_ms_per_flow: round(median(runs.map((r) => r.dbCpuMsPerFlow))),
  machine_busy_pct: round(median(runs.map((r) => r.machineBusyPct)), 1),
  latency_ms: Object.fromEntries(jsonLatencyKeys.map((k) => [k, {
    p50: round(median(runs.map((r) => r.latency[k].p50))),
    p95: round(median(runs.map((r) => r.latency[k].p95))),
    p99: round(median(runs.map((r) => r.latency[k].p99)))
  }]))
})

/** The targets: ours against the same-job reference (ratios: medians of the per-repetition ratios). */
export const targets = {
  flowsRatioMin: 0.8,
  flowP99RatioMax: 1.5,
  nodeCpuRatioMax: 1.5,
  dbCpuRatioMax: 1.0,
  oursPeakRssMbMax: 200,
  embeddedPeakRssMbMax: 300
} as const

export interface Check {
  readonly target: string
  readonly value: number
  readonly limit: number
  readonly pass: boolean
}

/** The four per-repetition ratios of one server against another (same repetition number). */
export const ratiosPerRep = (a: ReadonlyArray<RunSummary>, b: ReadonlyArray<RunSummary>) =>
  a.flatMap((x) => {
    const y = b.find((r) => r.rep === x.rep)
    return y === undefined ? [] : [{
      rep: x.rep,
      flows: round(ratio(x.flowsPerSec, y.flowsPerSec), 3),
      flow_p99: round(ratio(x.latency.flow.p99, y.latency.flow.p99), 3),
      node_cpu: round(ratio(x.cpuMsPerFlow, y.cpuMsPerFlow), 3),
      db_cpu: round(ratio(x.dbCpuMsPerFlow, y.dbCpuMsPerFlow), 3)
    }]
  })

type Ratios = ReturnType<typeof ratiosPerRep>
const medianRatios = (perRep: Ratios) => ({
  flows: round(median(perRep.map((r) => r.flows)), 3),
  flow_p99: round(median(perRep.map((r) => r.flow_p99)), 3),
  node_cpu: round(median(perRep.map((r) => r.node_cpu)), 3),
  db_cpu: round(median(perRep.map((r) => r.db_cpu)), 3)
})

/** The targets at one concurrency, from the medians of ours/same-job per repetition. */
export const concurrencyChecks = (c: number, m: ReturnType<typeof medianRatios>): Array<Check> => [
  { target: `C=${c} flows/s ≥ ${targets.flowsRatioMin} × same-job`, value: m.flows, limit: targets.flowsRatioMin, pass: m.flows >= targets.flowsRatioMin },
  { target: `C=${c} flow p99 ≤ ${targets.flowP99RatioMax} × same-job`, value: m.flow_p99, limit: targets.flowP99RatioMax, pass: m.flow_p99 <= targets.flowP99RatioMax },
  { target: `C=${c} node CPU/flow ≤ ${targets.nodeCpuRatioMax} × same-job`, value: m.node_cpu, limit: targets.nodeCpuRatioMax, pass: m.node_cpu <= targets.nodeCpuRatioMax },
  { target: `C=${c} DB CPU/flow ≤ ${targets.dbCpuRatioMax} × same-job`, value: m.db_cpu, limit: targets.dbCpuRatioMax, pass: m.db_cpu <= targets.dbCpuRatioMax }
]

const table = (c: number, rows: ReadonlyArray<[string, ReadonlyArray<RunSummary>]>): Array<string> => [
  `C=${c}     server     runs  flows/s  flow p50  flow p99  node CPU ms/flow  DB CPU ms/flow  peak RSS MB  errors`,
  ...rows.filter(([, runs]) => runs.length > 0).map(([name, runs]) => {
    const m = medians(runs)
    return `         ${name.padEnd(10)} ${pad(m.runs, 4)} ${pad(m.flows_per_s.toFixed(1), 8)} ${ms(m.latency_ms["flow"]?.p50 ?? Number.NaN)}   ` +
      `${ms(m.latency_ms["flow"]?.p99 ?? Number.NaN)}   ${pad(m.cpu_ms_per_flow.toFixed(2), 16)} ${pad(m.db_cpu_ms_per_flow.toFixed(2), 15)} ` +
      `${pad(m.peak_rss_mb.toFixed(0), 12)} ${pad(m.errors, 7)}`
  })
]

const ratioLine = (label: string, perRep: Ratios): string => {
  const m = medianRatios(perRep)
  return `  ${label}: ` + perRep.map((r) => `rep ${r.rep} flows ${r.flows} p99 ${r.flow_p99} cpu ${r.node_cpu} db ${r.db_cpu}`).join("; ") +
    `  → medians flows ${m.flows}, p99 ${m.flow_p99}, node CPU ${m.node_cpu}, DB CPU ${m.db_cpu}`
}

/** The whole report as one JSON-ready object, and the lines printed before it. */
export const buildReport = (runs: ReadonlyArray<RunSummary>, concurrencies: ReadonlyArray<number>, meta: Record<string, unknown>) => {
  const lines: Array<string> = []
  const byConcurrency: Record<string, unknown> = {}
  const checks: Array<Check> = []
  const traffic = (meta["options"] as { traffic?: string } | undefined)?.traffic
  if (traffic === "one-address") {
    lines.push("traffic: one address, limits lifted (the STRESS variant: issue 23's targets are for real traffic, --traffic=visitors)")
  } else if (traffic !== undefined) {
    lines.push("traffic: real (a visitor address per flow, TRUST_PROXY_HOPS=1, every limit at its default)")
  }
  for (const c of concurrencies) {
    const ours = pick(runs, "ours", c)
    const reference = pick(runs, "reference", c)
    const lean = pick(runs, "lean", c)
    const embedded = pick(runs, "embedded", c)
    const oursVsSameJob = ratiosPerRep(ours, reference)
    const oursVsLean = ratiosPerRep(ours, lean)
    const sameJobVsLean = ratiosPerRep(reference, lean)
    byConcurrency[String(c)] = {
      ours: medians(ours),
      reference_same_job: medians(reference),
      reference_lean: medians(lean),
      ...(embedded.length > 0 ? { embedded: medians(embedded) } : {}),
      ours_vs_same_job_per_rep: oursVsSameJob,
      ours_vs_same_job: medianRatios(oursVsSameJob),
      ours_vs_lean: medianRatios(oursVsLean),
      same_job_vs_lean: medianRatios(sameJobVsLean)
    }
    lines.push(...table(c, [["ours", ours], ["same-job", reference], ["lean", lean], ["embedded", embedded]]))
    if (oursVsSameJob.length > 0) lines.push(ratioLine("ours/same-job", oursVsSameJob))
    if (oursVsLean.length > 0) lines.push(ratioLine("ours/lean", oursVsLean))
    if (sameJobVsLean.length > 0) lines.push(ratioLine("same-job/lean", sameJobVsLean))
    if (oursVsSameJob.length > 0) checks.push(...concurrencyChecks(c, medianRatios(oursVsSameJob)))
  }
  const peak = (server: ServerKind) => round(Math.max(...runs.filter((r) => r.server === server).map((r) => r.peakRssMb)), 1)
  if (runs.some((r) => r.server === "ours")) {
    const rss = peak("ours")
    checks.push({ target: `ours peak RSS ≤ ${targets.oursPeakRssMbMax} MB`, value: rss, limit: targets.oursPeakRssMbMax, pass: rss <= targets.oursPeakRssMbMax })
  }
  const embeddedRuns = runs.filter((r) => r.server === "embedded")
  const embeddedErrors = embeddedRuns.reduce((n, r) => n + r.errors, 0)
  if (embeddedRuns.length > 0) {
    const rss = peak("embedded")
    checks.push({ target: `embedded peak RSS ≤ ${targets.embeddedPeakRssMbMax} MB`, value: rss, limit: targets.embeddedPeakRssMbMax, pass: rss <= targets.embeddedPeakRssMbMax })
    checks.push({ target: "embedded 0 errors", value: embeddedErrors, limit: 0, pass: embeddedErrors === 0 })
    // Not a check: the peak's parts, start-up (opening PGlite and its folder) and the load after it.
    const part = (get: (r: RunSummary) => number) => round(Math.max(...embeddedRuns.map(get)), 1)
    lines.push(`embedded peak RSS in parts: start-up ${part((r) => r.rssStartupMb)} MB, after start-up ${part((r) => r.rssAfterStartMb)} MB (the load)`)
  }
  for (const check of checks) lines.push(`${check.pass ? "PASS" : "FAIL"} ${check.target}: ${check.value}`)
  const errors = runs.reduce((n, r) => n + r.errors, 0)
  if (errors > 0) lines.push(`errors in the runs: ${errors} (see each run's error kinds); figures with errors are not comparable`)
  return {
    lines,
    json: {
      ...meta,
      by_concurrency: byConcurrency,
      checks,
      embedded_errors: embeddedErrors,
      runs: runs.map((r) => ({
        server: r.server, concurrency: r.concurrency, rep: r.rep, flows: r.flows,
        flows_per_s: round(r.flowsPerSec), requests_per_s: round(r.requestsPerSec), errors: r.errors,
        error_kinds: r.errorKinds, peak_rss_mb: round(r.peakRssMb, 1),
        rss_startup_mb: round(r.rssStartupMb, 1), rss_after_start_mb: round(r.rssAfterStartMb, 1), rows: r.rows,
        cpu_ms_per_flow: round(r.cpuMsPerFlow), cpu_pct_of_one_core: round(r.cpuPct, 1), db_cpu_ms_per_flow: round(r.dbCpuMsPerFlow),
        window_only: { cpu_ms_per_flow: round(r.cpuMsPerFlowWindow), db_cpu_ms_per_flow: round(r.dbCpuMsPerFlowWindow) },
        ...(r.delivery === undefined ? {} : {
          backlog: r.delivery.backlog,
          drain: { events: r.delivery.drain.events, s: round(r.delivery.drain.ms / 1000, 2), complete: r.delivery.drain.complete,
            cpu_ms: round(r.delivery.drain.cpuMs), db_cpu_ms: round(r.delivery.drain.dbCpuMs) }
        }),
        machine_busy_pct: round(r.machineBusyPct, 1), load_avg_1m: round(r.loadAvg1, 2),
        latency_ms: Object.fromEntries(jsonLatencyKeys.map((k) => [k, {
          p50: round(r.latency[k].p50), p95: round(r.latency[k].p95), p99: round(r.latency[k].p99), max: round(r.latency[k].max)
        }]))
      }))
    }
  }
}
