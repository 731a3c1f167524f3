/** Starting, watching (peak RSS) and stopping the servers under test, each a child process of its own. */
import { createServer as createHttpServer } from "node:http"
import { type ChildProcess, spawn } from "node:child_process"
import { closeSync, openSync, readFileSync } from "node:fs"
import { createServer } from "node:net"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { isReference, referenceCommand } from "./sharedReference.js"
import { limitVariables, type Traffic, trafficEnv } from "./visitors.js"

export const repoRoot = fileURLToPath(new URL("../../", import.meta.url))
export const benchFixture = join(repoRoot, "bench", "fixture.json")
export const oursEntry = join(repoRoot, "apps", "server", "dist", "main.js")

/**
 * `reference` is the same-job reference (sharedReference.ts, SAME_JOB=1: client limits + event work), `lean` the
 * same server without SAME_JOB, the floor (neither);
 * `embedded` is ours on its embedded database.
 */
export type ServerKind = "ours" | "reference" | "lean" | "embedded"

export interface StartOptions {
  readonly kind: ServerKind
  /** PostgreSQL for ours and the reference; unset for the embedded database. */
  readonly databaseUrl?: string
  readonly dataDir?: string
  readonly logLevel: string
  /** Visitors (TRUST_PROXY_HOPS=1, default limits) or one address (limits lifted). */
  readonly traffic: Traffic
  /** Where stdout and stderr go. */
  readonly logFile: string
  readonly cpuProfDir?: string
}

export interface RunningServer {
  readonly kind: ServerKind
  readonly pid: number
  readonly baseUrl: string
  /** Highest resident set seen so far (sampled VmRSS every 100 ms, and the kernel's VmHWM), in MiB. */
  readonly peakRssMb: () => number
  /** VmHWM when the server first answered: what its start-up took (for embedded: PGlite's initdb on a fresh folder). */
  readonly startupPeakRssMb: number
  /** Highest VmRSS sampled since the server first answered, in MiB. */
  readonly peakRssAfterStartMb: () => number
  readonly stop: () => Promise<number | null>
}

/**
 * Extra node arguments for ours (experiments only, never the headline): BENCH_OURS_NODE_ARGS, split
 * on spaces, e.g. `--stack-trace-limit=0` or an `--import data:…` preload; BENCH_OURS_ENTRY replaces
 * apps/server/dist/main.js (e.g. a tree-shaken single-file bundle of it).
 */
const oursNodeArgs = (): Array<string> =>
  (process.env["BENCH_OURS_NODE_ARGS"] ?? "").split(" ").filter((a) => a !== "")

/**
 * Operations switches for ours (issue 36), never the headline: BENCH_OURS_METRICS=1 starts ours with METRICS_PORT
 * (any free port: every answer measured, the counters kept), BENCH_OURS_TRACING=1 with OTEL_EXPORTER_OTLP_ENDPOINT
 * pointing at a sink on the loopback that this process runs (it accepts every export and keeps nothing), so that
 * the cost of tracing is the server's own.
 */
let otlpSink: Promise<string> | undefined
const startOtlpSink = (): Promise<string> =>
  (otlpSink ??= new Promise((resolve) => {
    const sink = createHttpServer((req, res) => {
      req.resume()
      req.on("end", () => res.writeHead(200, { "content-type": req.headers["content-type"] ?? "application/json" }).end())
    })
    sink.listen(0, "127.0.0.1", () => {
      const address = sink.address()
      sink.unref()
      resolve(`http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`)
    })
  }))

const operationsEnv = async (): Promise<Record<string, string>> => ({
  ...(process.env["BENCH_OURS_METRICS"] === "1" ? { METRICS_PORT: "0" } : {}),
  ...(process.env["BENCH_OURS_TRACING"] === "1" ? { OTEL_EXPORTER_OTLP_ENDPOINT: await startOtlpSink() } : {})
})

export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })

/** VmRSS and VmHWM of a live process in kB, from /proc (Linux). */
export const readRss = (pid: number): { rssKb: number; hwmKb: number } | undefined => {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8")
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? "0")
    return { rssKb: kb("VmRSS"), hwmKb: kb("VmHWM") }
  } catch {
    return undefined
  }
}

const waitForExit = (child: ChildProcess, ms: number): Promise<boolean> =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(true)
    const timer = setTimeout(() => resolve(false), ms)
    child.once("exit", () => {
      clearTimeout(timer)
      resolve(true)
    })
  })

const tail = (file: string): string => {
  try {
    return readFileSync(file, "utf8").split("\n").slice(-15).join("\n")
  } catch {
    return ""
  }
}

export const startServer = async (options: StartOptions): Promise<RunningServer> => {
  const port = await freePort()
  const env: Record<string, string> = {}
  const dropped = new Set<string>([
    "DATABASE_URL", "DATA_DIR", "FIXTURE_FILE", "SAME_JOB", "TOKEN_CACHE", "PG_POOL", "METRICS_PORT", "OTEL_EXPORTER_OTLP_ENDPOINT",
    ...limitVariables
  ])
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !dropped.has(key)) env[key] = value
  }
  Object.assign(env, {
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    PORT: String(port),
    FIXTURE_FILE: benchFixture,
    // Visitors: each flow its own X-Forwarded-For address behind one trusted hop, every limit at its
    // default. One address: every flow from 127.0.0.1, so the submit and write limits are lifted (the stress variant).
    ...trafficEnv(options.traffic),
    LOG_LEVEL: options.logLevel
  })
  const reference = isReference(options.kind) ? referenceCommand(repoRoot, options.kind) : undefined
  if (reference === undefined) Object.assign(env, await operationsEnv())
  else Object.assign(env, reference.env)
  if (options.databaseUrl !== undefined) env["DATABASE_URL"] = options.databaseUrl
  if (options.dataDir !== undefined) env["DATA_DIR"] = options.dataDir
  const profiling = options.cpuProfDir === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${options.cpuProfDir}`]
  const args = reference !== undefined
    ? [...profiling, reference.entry]
    : [...profiling, ...oursNodeArgs(), (process.env["BENCH_OURS_ENTRY"] || oursEntry)]
  const fd = openSync(options.logFile, "a")
  const child = spawn(process.execPath, args, { cwd: repoRoot, env, stdio: ["ignore", fd, fd] })
  closeSync(fd)
  const pid = child.pid
  if (pid === undefined) throw new Error(`${options.kind} did not start`)

  let peakKb = 0
  let ready = false
  let afterStartKb = 0
  const sample = () => {
    const rss = readRss(pid)
    if (rss === undefined) return
    peakKb = Math.max(peakKb, rss.rssKb, rss.hwmKb)
    if (ready) afterStartKb = Math.max(afterStartKb, rss.rssKb)
  }
  const sampler = setInterval(sample, 100)
  const baseUrl = `http://127.0.0.1:${port}`

  const stop = async (): Promise<number | null> => {
    sample()
    clearInterval(sampler)
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM")
      if (!(await waitForExit(child, 15_000))) {
        child.kill("SIGKILL")
        await waitForExit(child, 5_000)
      }
    }
    return child.exitCode
  }

  // Ready when the port answers anything (ours: /health/live; the reference: its 404).
  const deadline = Date.now() + 120_000
  for (;;) {
    if (child.exitCode !== null) {
      clearInterval(sampler)
      throw new Error(`${options.kind} exited with ${child.exitCode} before listening:\n${tail(options.logFile)}`)
    }
    try {
      const response = await fetch(`${baseUrl}/health/live`)
      await response.arrayBuffer()
      break
    } catch {
      if (Date.now() > deadline) {
        await stop()
        throw new Error(`${options.kind} did not listen within 120 s:\n${tail(options.logFile)}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  sample()
  const startupPeakRssMb = peakKb / 1024
  ready = true
  return {
    kind: options.kind,
    pid,
    baseUrl,
    peakRssMb: () => (sample(), peakKb / 1024),
    startupPeakRssMb,
    peakRssAfterStartMb: () => (sample(), afterStartKb / 1024),
    stop
  }
}
