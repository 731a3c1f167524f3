/** Turning load results into the printed tables, the per-repetition ratios, the medians and the targets. */
import type { CpuWindow } from "./cpu.js"
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
  /** Submitted rows in the database after the run (at least the counted flows). */
  readonly submittedRows: number
  /** The server's CPU per completed flow (ms) and its CPU use in the window (% of one core). */
  readonly cpuMsPerFlow: number
  readonly cpuPct: number
  readonly machineBusyPct: number
  readonly loadAvg1: number
  /** CPU of the PostgreSQL backends of the server's database per completed flow (ms); NaN when embedded. */
  readonly dbCpuMsPerFlow: number
}

export const summarizeRun = (
  server: ServerKind,
  rep: number,
  result: LoadResult,
  peakRssMb: number,
  submittedRows: number,
  cpu: CpuWindow,
  dbCpuMs: number
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
  peakRssMb,
  submittedRows,
  cpuMsPerFlow: cpu.serverCpuMs / Math.max(1, result.flows),
  cpuPct: (cpu.serverCpuMs / result.elapsedMs) * 100,
  machineBusyPct: cpu.machineBusyPct,
  loadAvg1: cpu.loadAvg1,
  dbCpuMsPerFlow: dbCpuMs / Math.max(1, result.flows)
})

const pad = (s: string | number, n: number) => String(s).padStart(n)
const ms = (v: number) => pad(round(v, 1).toFixed(1), 7)

export const runLine = (r: RunSummary): string =>
  `${r.server.padEnd(9)} C=${pad(r.concurrency, 2)} rep ${r.rep}: ${pad(round(r.flowsPerSec, 1).toFixed(1), 7)} flows/s ` +
  `${pad(round(r.requestsPerSec, 0), 6)} req/s  errors ${r.errors}  rss ${pad(round(r.peakRssMb, 0), 4)} MB  ` +
  `cpu ${pad(round(r.cpuMsPerFlow, 1).toFixed(1), 5)} ms/flow ${pad(round(r.cpuPct, 0), 3)}%  db ${pad(round(r.dbCpuMsPerFlow, 1).toFixed(1), 5)} ms/flow  machine ${pad(round(r.machineBusyPct, 0), 3)}% ` +
  `load ${round(r.loadAvg1, 1).toFixed(1)}\n    ` +
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

export interface Targets {
  readonly flowsRatioAt64: number
  readonly flowP99Ratio: number
  readonly oursPeakRssMb: number
}
export const targets: Targets = { flowsRatioAt64: 0.7, flowP99Ratio: 2.0, oursPeakRssMb: 200 }

/** The whole report as one JSON-ready object, and the lines printed before it. */
export const buildReport = (runs: ReadonlyArray<RunSummary>, concurrencies: ReadonlyArray<number>, meta: Record<string, unknown>) => {
  const lines: Array<string> = []
  const byConcurrency: Record<string, unknown> = {}
  const checks: Array<{ target: string; value: number; limit: number; pass: boolean }> = []
  for (const c of concurrencies) {
    const ours = pick(runs, "ours", c)
    const reference = pick(runs, "reference", c)
    const embedded = pick(runs, "embedded", c)
    const perRep = ours.map((o) => {
      const ref = reference.find((r) => r.rep === o.rep)
      return {
        rep: o.rep,
        flows_ratio: round(ratio(o.flowsPerSec, ref?.flowsPerSec ?? Number.NaN), 3),
        flow_p99_ratio: round(ratio(o.latency.flow.p99, ref?.latency.flow.p99 ?? Number.NaN), 3)
      }
    })
    const flowsRatio = round(median(perRep.map((r) => r.flows_ratio)), 3)
    const p99Ratio = round(median(perRep.map((r) => r.flow_p99_ratio)), 3)
    byConcurrency[String(c)] = {
      ours: medians(ours),
      reference: medians(reference),
      ...(embedded.length > 0 ? { embedded: medians(embedded) } : {}),
      ratios_per_rep: perRep,
      median_flows_ratio: flowsRatio,
      median_flow_p99_ratio: p99Ratio
    }
    lines.push(`C=${c}: ours/reference per repetition: ` +
      perRep.map((r) => `rep ${r.rep} flows ${r.flows_ratio} p99 ${r.flow_p99_ratio}`).join("; ") +
      `  → medians: flows/s ratio ${flowsRatio}, flow p99 ratio ${p99Ratio}`)
    if (perRep.length === 0 || reference.length === 0) continue
    if (c === 64) checks.push({ target: "flows/s ratio at C=64 ≥ 0.7", value: flowsRatio, limit: targets.flowsRatioAt64, pass: flowsRatio >= targets.flowsRatioAt64 })
    checks.push({ target: `flow p99 ratio at C=${c} ≤ 2.0`, value: p99Ratio, limit: targets.flowP99Ratio, pass: p99Ratio <= targets.flowP99Ratio })
  }
  const oursRuns = runs.filter((r) => r.server === "ours")
  const oursRss = round(Math.max(...oursRuns.map((r) => r.peakRssMb)), 1)
  if (oursRuns.length > 0) checks.push({ target: "ours peak RSS ≤ 200 MB", value: oursRss, limit: targets.oursPeakRssMb, pass: oursRss <= targets.oursPeakRssMb })
  const embeddedErrors = runs.filter((r) => r.server === "embedded").reduce((n, r) => n + r.errors, 0)
  for (const check of checks) lines.push(`${check.pass ? "PASS" : "FAIL"} ${check.target}: ${check.value}`)
  if (runs.some((r) => r.server === "embedded")) lines.push(`embedded: ${embeddedErrors === 0 ? "no errors" : `${embeddedErrors} errors`}`)
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
        error_kinds: r.errorKinds, peak_rss_mb: round(r.peakRssMb, 1), submitted_rows: r.submittedRows,
        cpu_ms_per_flow: round(r.cpuMsPerFlow), cpu_pct_of_one_core: round(r.cpuPct, 1), db_cpu_ms_per_flow: round(r.dbCpuMsPerFlow),
        machine_busy_pct: round(r.machineBusyPct, 1), load_avg_1m: round(r.loadAvg1, 2),
        latency_ms: Object.fromEntries(jsonLatencyKeys.map((k) => [k, {
          p50: round(r.latency[k].p50), p95: round(r.latency[k].p95), p99: round(r.latency[k].p99), max: round(r.latency[k].max)
        }]))
      }))
    }
  }
}
