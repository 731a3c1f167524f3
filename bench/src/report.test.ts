import { describe, expect, it } from "vitest"
import type { LoadResult } from "./driver.js"
import { buildReport, ratiosPerRep, type RunSummary, summarizeRun } from "./report.js"
import { Samples } from "./stats.js"
import type { ServerKind } from "./servers.js"

const run = (server: ServerKind, rep: number, flows: number, flowMs: number, cpuMs: number, dbCpuMs: number, rssMb = 150): RunSummary => {
  const samples = () => {
    const s = new Samples()
    for (let i = 0; i < 100; i++) s.push(flowMs)
    return s
  }
  const result: LoadResult = {
    concurrency: 64, elapsedMs: 10_000, flows, requests: flows * 5, errors: 0, errorKinds: {}, errorSamples: [],
    latencies: { create: samples(), save1: samples(), save2: samples(), save3: samples(), submit: samples(), save: samples(), flow: samples() }
  }
  return summarizeRun(server, rep, result, { peak: rssMb, startupMb: rssMb, afterStartMb: rssMb }, undefined,
    { serverCpuMs: cpuMs * flows, machineBusyPct: 90, loadAvg1: 2 }, dbCpuMs * flows)
}

describe("the report's targets (ours against the same-job reference)", () => {
  it("takes the ratios per repetition, ours over the other server of the same repetition", () => {
    const ratios = ratiosPerRep([run("ours", 1, 800, 300, 6, 5)], [run("reference", 1, 1000, 200, 4, 5)])
    expect(ratios).toEqual([{ rep: 1, flows: 0.8, flow_p99: 1.5, node_cpu: 1.5, db_cpu: 1 }])
  })

  it("passes each target at its limit and fails just past it, from the medians of three repetitions", () => {
    const runs = [
      run("ours", 1, 800, 300, 6, 5), run("reference", 1, 1000, 200, 4, 5), run("lean", 1, 1200, 150, 3, 3),
      run("ours", 2, 790, 310, 6.1, 5.1), run("reference", 2, 1000, 200, 4, 5), run("lean", 2, 1200, 150, 3, 3),
      run("ours", 3, 900, 250, 5, 4), run("reference", 3, 1000, 200, 4, 5), run("lean", 3, 1200, 150, 3, 3),
      run("embedded", 1, 500, 400, 9, Number.NaN, 401)
    ]
    const report = buildReport(runs, [64], { options: { traffic: "visitors" } })
    const verdict = Object.fromEntries(report.json.checks.map((c) => [c.target, c.pass]))
    expect(verdict).toEqual({
      "C=64 flows/s ≥ 0.8 × same-job": true, // median of 0.8, 0.79, 0.9
      "C=64 flow p99 ≤ 1.5 × same-job": true, // 1.5, 1.55, 1.25
      "C=64 node CPU/flow ≤ 1.5 × same-job": true, // 1.5, 1.525, 1.25
      "C=64 DB CPU/flow ≤ 1 × same-job": true, // 1, 1.02, 0.8
      "ours peak RSS ≤ 200 MB": true,
      "embedded peak RSS ≤ 300 MB": false,
      "embedded 0 errors": true
    })
    const worse = buildReport(runs.map((r) => r.server === "ours" && r.rep === 3 ? run("ours", 3, 700, 320, 7, 7, 201) : r), [64], {})
    expect(worse.json.checks.filter((c) => !c.pass).map((c) => c.target)).toEqual([
      "C=64 flows/s ≥ 0.8 × same-job", "C=64 flow p99 ≤ 1.5 × same-job", "C=64 node CPU/flow ≤ 1.5 × same-job",
      "C=64 DB CPU/flow ≤ 1 × same-job", "ours peak RSS ≤ 200 MB", "embedded peak RSS ≤ 300 MB"
    ])
  })
})
