/**
 * `pnpm bench:load`: full visitor flows against ours, the same-job reference and the lean reference,
 * interleaved (A B C, C B A, A B C), each run on a fresh database of its own, at each concurrency; then
 * ours on the embedded database. The headline is real traffic: each flow its own visitor
 * (X-Forwarded-For behind TRUST_PROXY_HOPS=1, every limit at its default); `--traffic=one-address` is the
 * old stress variant (all from 127.0.0.1, the submit and write limits lifted). The last line printed is
 * JSON with every figure. Options: --duration=15 --warmup=3 --reps=3 --concurrency=16,64
 * --traffic=visitors|one-address --addresses=ipv4|ipv6 --servers=ours,reference,lean --log=info|warn
 * --no-embedded --no-roundtrips --build --quick (or BENCH_DURATION, BENCH_WARMUP, BENCH_REPS,
 * BENCH_CONCURRENCY, BENCH_TRAFFIC, BENCH_ADDRESSES, BENCH_LOG, BENCH_EMBEDDED=0, BENCH_ROUNDTRIPS=0).
 */
import { spawnSync } from "node:child_process"
import { existsSync, statSync } from "node:fs"
import { mkdtemp, rm } from "node:fs/promises"
import { availableParallelism, tmpdir, totalmem } from "node:os"
import { join } from "node:path"
import { type CpuWindow, openCpuWindow, openDbCpuWindow } from "./cpu.js"
import { drainOutbox, withBacklog } from "./backlog.js"
import { adminUrl, countRows, databaseUrl, dropDatabase, pendingEvents } from "./database.js"
import { createDatabaseFor, preparedReference, referenceDir } from "./sharedReference.js"
import { runLoad } from "./driver.js"
import { buildReport, runLine, type RunSummary, summarizeRun } from "./report.js"
import { countRoundTrips, type RoundTripReport } from "./roundTrips.js"
import { oursEntry, repoRoot, type RunningServer, type ServerKind, startServer } from "./servers.js"
import type { AddressFamily, Traffic } from "./visitors.js"

type Measured = "ours" | "reference" | "lean"
const measured: ReadonlyArray<Measured> = ["ours", "reference", "lean"]

const arg = (name: string): string | undefined => {
  const hit = process.argv.find((a) => a === `--${name}` || a.startsWith(`--${name}=`))
  return hit === undefined ? undefined : (hit.split("=")[1] ?? "true")
}
const quick = arg("quick") !== undefined
const num = (name: string, envName: string, fallback: number): number => Number(arg(name) ?? process.env[envName] ?? fallback)
const options = {
  durationS: num("duration", "BENCH_DURATION", quick ? 3 : 15),
  warmupS: num("warmup", "BENCH_WARMUP", quick ? 1 : 3),
  reps: num("reps", "BENCH_REPS", quick ? 1 : 3),
  concurrency: (arg("concurrency") ?? process.env["BENCH_CONCURRENCY"] ?? "16,64").split(",").map(Number),
  // Production default: ours logs one JSON line per request at info; the reference then does too.
  logLevel: arg("log") ?? process.env["BENCH_LOG"] ?? "info",
  embedded: arg("no-embedded") === undefined && process.env["BENCH_EMBEDDED"] !== "0",
  roundTrips: arg("no-roundtrips") === undefined && process.env["BENCH_ROUNDTRIPS"] !== "0",
  traffic: ((arg("traffic") ?? process.env["BENCH_TRAFFIC"]) === "one-address" ? "one-address" : "visitors") as Traffic,
  addresses: ((arg("addresses") ?? process.env["BENCH_ADDRESSES"]) === "ipv6" ? "ipv6" : "ipv4") as AddressFamily,
  // Experiments may measure fewer servers (--servers=ours); the headline needs all three.
  servers: (arg("servers") ?? "ours,reference,lean").split(",").filter((s): s is Measured => measured.includes(s as Measured)),
  oursNodeArgs: process.env["BENCH_OURS_NODE_ARGS"] ?? ""
}

const say = (line: string) => process.stdout.write(`${line}\n`)
const running = new Set<RunningServer>()
/** One database per server, created afresh before each of its runs and dropped after it. */
const databases: Record<Measured, string> = {
  ours: `forms_bench_ours_${process.pid}`,
  reference: `forms_bench_ref_${process.pid}`,
  lean: `forms_bench_lean_${process.pid}`
}

const cleanup = async () => {
  for (const server of running) await server.stop()
  running.clear()
  for (const name of Object.values(databases)) await dropDatabase(name).catch((e: unknown) => say(`cannot drop ${name}: ${String(e)}`))
}
process.once("SIGINT", () => void cleanup().finally(() => process.exit(130)))

/** Builds when dist is missing, or always with --build (a dist older than the sources measures old code). */
const ensureBuilt = () => {
  if (existsSync(oursEntry) && arg("build") === undefined) return
  say(existsSync(oursEntry) ? "--build: running pnpm build" : "apps/server/dist/main.js is missing: running pnpm build")
  const built = spawnSync("pnpm", ["build"], { cwd: repoRoot, stdio: ["ignore", "inherit", "inherit"] })
  if (built.status !== 0 || !existsSync(oursEntry)) throw new Error("pnpm build failed")
}

const main = async () => {
  ensureBuilt()
  if (options.servers.some((s) => s !== "ours")) say(`same-job reference: ${referenceDir(repoRoot)} (run from ${preparedReference(repoRoot)})`)
  const outDir = await mkdtemp(join(tmpdir(), "forms-bench-"))
  say(`logs in ${outDir}; options ${JSON.stringify(options)}`)
  const admin = adminUrl()
  const urls: Record<Measured, string> = {
    ours: databaseUrl(admin, databases.ours),
    reference: databaseUrl(admin, databases.reference),
    lean: databaseUrl(admin, databases.lean)
  }
  const visitors = options.traffic === "visitors" ? options.addresses : undefined

  const roundTrips: Record<string, RoundTripReport> = {}
  if (options.roundTrips) {
    for (const kind of options.servers) {
      await createDatabaseFor(repoRoot, kind, databases[kind])
      roundTrips[kind] = await countRoundTrips(kind, urls[kind], options.logLevel, join(outDir, `${kind}-roundtrips.log`), running,
        options.traffic, options.addresses)
      await dropDatabase(databases[kind])
      say(`round trips ${kind}: ${JSON.stringify(roundTrips[kind])}`)
    }
  }

  const runs: Array<RunSummary> = []
  /** VmHWM of each embedded folder's first start (initdb), MiB. */
  const firstStartPeaks: Array<number> = []
  const measure = async (kind: ServerKind, c: number, rep: number, dataDir?: string) => {
    const dbUrl = kind === "embedded" ? undefined : urls[kind]
    if (kind !== "embedded") await createDatabaseFor(repoRoot, kind, databases[kind])
    /** Ours and the same-job reference deliver their events; the lean floor leaves its outbox rows. */
    const delivers = kind === "ours" || kind === "reference" ? { database: databases[kind], url: urls[kind] } : undefined
    const server = await startServer({
      kind,
      ...(dbUrl === undefined ? {} : { databaseUrl: dbUrl }),
      ...(dataDir === undefined ? {} : { dataDir }),
      logLevel: options.logLevel,
      traffic: options.traffic,
      logFile: join(outDir, `${kind}-c${c}-rep${rep}.log`)
    })
    running.add(server)
    let closeWindow: (() => CpuWindow) | undefined
    let cpu: CpuWindow | undefined
    let closeDbWindow: (() => Promise<number>) | undefined
    let dbCpu: Promise<number> | undefined
    let backlogAtOpen: Promise<number> | undefined
    let backlogAtClose: Promise<number> | undefined
    const result = await runLoad({
      baseUrl: server.baseUrl,
      concurrency: c,
      warmupMs: options.warmupS * 1000,
      durationMs: options.durationS * 1000,
      ...(visitors === undefined ? {} : { visitors }),
      onMeasureStart: () => {
        closeWindow = openCpuWindow(server.pid)
        if (kind !== "embedded") closeDbWindow = openDbCpuWindow(admin, databases[kind])
        if (delivers) backlogAtOpen = pendingEvents(delivers.url)
      },
      onMeasureEnd: () => {
        cpu = closeWindow?.()
        dbCpu = closeDbWindow?.()
        if (delivers) backlogAtClose = pendingEvents(delivers.url)
      }
    })
    const dbCpuMs = dbCpu === undefined ? Number.NaN : await dbCpu
    // The events the window left behind are still work of its flows (backlog.ts).
    const backlog = delivers !== undefined && backlogAtOpen !== undefined && backlogAtClose !== undefined
      ? { atOpen: await backlogAtOpen, atClose: await backlogAtClose }
      : undefined
    const drain = backlog === undefined || delivers === undefined
      ? undefined
      : await drainOutbox(server.pid, admin, delivers.database, delivers.url)
    const peak = server.peakRssMb()
    const rssParts = { startupMb: server.startupPeakRssMb, afterStartMb: server.peakRssAfterStartMb() }
    await server.stop()
    running.delete(server)
    const rows = dbUrl === undefined ? undefined : await countRows(dbUrl)
    if (kind !== "embedded") await dropDatabase(databases[kind])
    const summary = summarizeRun(kind, rep, result, { peak, ...rssParts }, rows,
      cpu ?? { serverCpuMs: Number.NaN, machineBusyPct: Number.NaN, loadAvg1: Number.NaN }, dbCpuMs,
      backlog === undefined || drain === undefined || cpu === undefined
        ? undefined
        : { backlog, drain, withBacklog: withBacklog({ cpuMs: cpu.serverCpuMs, dbCpuMs }, backlog, drain) })
    runs.push(summary)
    say(runLine(summary))
    // Real traffic: the write and submit limits each count every flow under a key of its own.
    if (options.traffic === "visitors" && delivers !== undefined && rows !== undefined && rows.limiterKeys < 2 * rows.submitted) {
      say(`  WARNING: ${rows.limiterKeys} limiter keys for ${rows.submitted} submitted flows: the limits did not count a visitor per flow`)
    }
    for (const sample of summary.errorSamples) say(`  error: ${sample}`)
  }

  for (const c of options.concurrency) {
    for (let rep = 1; rep <= options.reps; rep++) {
      const order: ReadonlyArray<Measured> = rep % 2 === 1 ? ["ours", "reference", "lean"] : ["lean", "reference", "ours"]
      for (const kind of order) if (options.servers.includes(kind)) await measure(kind, c, rep)
    }
  }
  if (options.embedded) {
    for (const c of options.concurrency) {
      const dataDir = await mkdtemp(join(tmpdir(), "forms-bench-embedded-"))
      try {
        // The folder's first start runs PGlite's initdb once per installation: its peak is reported apart,
        // and the measured server starts on the folder as every later start does.
        const first = await startServer({ kind: "embedded", dataDir, logLevel: options.logLevel, traffic: options.traffic,
          logFile: join(outDir, `embedded-c${c}-first-start.log`) })
        running.add(first)
        firstStartPeaks.push(first.peakRssMb())
        await first.stop()
        running.delete(first)
        await measure("embedded", c, 1, dataDir)
      } finally {
        await rm(dataDir, { recursive: true, force: true })
      }
    }
  }
  await cleanup()

  const report = buildReport(runs, options.concurrency, {
    date: new Date().toISOString(),
    machine: { nproc: availableParallelism(), total_memory_gb: Math.round(totalmem() / 2 ** 30 * 10) / 10, node: process.version },
    options: {
      duration_s: options.durationS, warmup_s: options.warmupS, reps: options.reps, concurrency: options.concurrency,
      traffic: options.traffic, addresses: options.traffic === "visitors" ? options.addresses : "127.0.0.1",
      log_level: options.logLevel, servers: options.servers, ours_node_args: options.oursNodeArgs,
      reference: options.servers.some((s) => s !== "ours") ? referenceDir(repoRoot) : null
    },
    logs: outDir,
    git_head: spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: repoRoot, encoding: "utf8" }).stdout.trim(),
    ours_entry: process.env["BENCH_OURS_ENTRY"] || oursEntry,
    ours_built_at: statSync(process.env["BENCH_OURS_ENTRY"] || oursEntry).mtime.toISOString(),
    round_trips: roundTrips,
    embedded_first_start_peak_rss_mb: firstStartPeaks.map((mb) => Math.round(mb * 10) / 10)
  })
  if (firstStartPeaks.length > 0) {
    report.lines.push(`embedded first start of a fresh folder (PGlite's initdb, once per installation): peak RSS ` +
      `${firstStartPeaks.map((mb) => mb.toFixed(0)).join(", ")} MB`)
  }
  for (const line of report.lines) process.stdout.write(`${line}\n`)
  process.stdout.write(`${JSON.stringify(report.json)}\n`)
}

main().catch(async (error: unknown) => {
  say(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
  await cleanup()
  process.exit(1)
})
