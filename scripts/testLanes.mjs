// `pnpm test` after the type check: every package's suite, in lanes that run side by side (TEST_LANES, default 2).
// A lane takes the longest job left; each job's output is printed in one block when it ends, so vitest's
// "Tests N passed" lines never interleave. Every job runs even when another failed; a table of jobs, durations and
// exits closes the run, and the exit is non-zero when any job failed. docs/contributing.md says what runs where.
import { spawn } from "node:child_process"
import { availableParallelism } from "node:os"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))

/**
 * The jobs, longest first (minutes measured on a 2-core machine, docs/contributing.md); the server's files in two
 * shards (vitest --shard). Every job that uses TEST_DATABASE_URL isolates itself in a schema or a database of its
 * own, so lanes share it.
 */
export const plan = [
  { name: "@forms/e2e abuse", dir: "e2e", script: "test:abuse" },
  { name: "@forms/server 1/2", dir: "apps/server", script: "test", args: ["--shard=1/2"] },
  { name: "@forms/server 2/2", dir: "apps/server", script: "test", args: ["--shard=2/2"] },
  { name: "@forms/adapters-sql", dir: "packages/adapters-sql", script: "test" },
  { name: "@forms/e2e faults", dir: "e2e", script: "test:faults" },
  { name: "@forms/examples", dir: "examples", script: "test" },
  { name: "@forms/domain", dir: "packages/domain", script: "test" },
  { name: "@forms/adapters-http", dir: "packages/adapters-http", script: "test" },
  { name: "@forms/web", dir: "packages/web", script: "test" },
  { name: "@forms/bench", dir: "bench", script: "test" }
]

/** TEST_LANES when it is a whole number of at least 1, else 2. */
export const laneCount = (raw = process.env["TEST_LANES"]) => {
  const n = raw === undefined || raw.trim() === "" ? Number.NaN : Number(raw)
  return Number.isSafeInteger(n) && n >= 1 ? n : 2
}

/** How pnpm runs a script here: the pnpm that runs us (npm_execpath), else the one on PATH. */
const pnpmCommand = (script, args = []) => {
  const execPath = process.env["npm_execpath"]
  return execPath !== undefined && /\.c?js$/.test(execPath)
    ? { command: process.execPath, args: [execPath, "run", script, ...args] }
    : { command: "pnpm", args: ["run", script, ...args] }
}

const seconds = (ms) => `${(ms / 1000).toFixed(0)} s`

/**
 * Runs `jobs` in `lanes` lanes; `start(job)` spawns a job's process. Output of a job goes to `write` in one block
 * when it ends, a line when it starts. Once `stop` is aborted no further job starts. Answers the results in the
 * plan's order (status null: not started).
 */
export const runLanes = async (jobs, lanes, start, write = (text) => process.stdout.write(text), stop = new AbortController().signal) => {
  const queue = [...jobs]
  const results = new Map()
  const began = Date.now()
  const runOne = (job) =>
    new Promise((resolve) => {
      const started = Date.now()
      write(`lanes: ${job.name} started (${seconds(started - began)} into the run)\n`)
      const chunks = []
      const child = start(job)
      child.stdout?.on("data", (chunk) => chunks.push(chunk))
      child.stderr?.on("data", (chunk) => chunks.push(chunk))
      let finished = false
      // A process that cannot start reports "error", and may report "close" after it: the first one counts.
      const finish = (status) => {
        if (finished) return
        finished = true
        const ms = Date.now() - started
        const verdict = status === 0 ? "passed" : `FAILED (exit ${status})`
        const output = Buffer.concat(chunks.map((c) => (typeof c === "string" ? Buffer.from(c) : c))).toString("utf8")
        write(`\n──── ${job.name}: ${verdict} in ${seconds(ms)} ────\n${output}${output.endsWith("\n") || output === "" ? "" : "\n"}` +
          `──── end of ${job.name} ────\n\n`)
        results.set(job, { name: job.name, status, ms })
        resolve()
      }
      child.once("error", (error) => {
        chunks.push(Buffer.from(`lanes: ${job.name} could not start: ${error.message}\n`))
        finish(1)
      })
      child.once("close", (code, signal) => finish(code ?? (signal === null ? 1 : 128)))
    })
  const lane = async () => {
    for (let job = queue.shift(); job !== undefined && !stop.aborted; job = queue.shift()) await runOne(job)
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(lanes, jobs.length)) }, lane))
  const ordered = jobs.map((job) => results.get(job) ?? { name: job.name, status: null, ms: 0 })
  const width = Math.max(...ordered.map((r) => r.name.length))
  const verdict = (r) => (r.status === 0 ? "passed" : r.status === null ? "not run" : `FAILED (exit ${r.status})`)
  write(`lanes: ${jobs.length} jobs in ${lanes} lanes, ${seconds(Date.now() - began)} in all\n` +
    ordered.map((r) => `  ${r.name.padEnd(width)}  ${verdict(r).padEnd(16)}  ${seconds(r.ms)}\n`).join(""))
  return ordered
}

const main = async () => {
  const lanes = laneCount()
  const children = new Set()
  const color = process.stdout.isTTY === true && process.env["NO_COLOR"] === undefined ? { FORCE_COLOR: "1" } : {}
  const start = (job) => {
    const { command, args } = pnpmCommand(job.script, job.args)
    // Each job in a process group of its own, so that a stop reaches everything it started.
    const child = spawn(command, args, {
      cwd: `${root}${job.dir}`,
      env: { ...process.env, ...color },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true
    })
    children.add(child)
    child.once("close", () => children.delete(child))
    return child
  }
  const stop = new AbortController()
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.once(signal, () => {
      stop.abort()
      for (const child of children) {
        try {
          process.kill(-child.pid, signal)
        } catch {
          // already gone
        }
      }
      process.exitCode = signal === "SIGINT" ? 130 : 143
    })
  }
  console.log(`lanes: ${plan.length} jobs in ${lanes} lanes on ${availableParallelism()} cores (TEST_LANES to change)`)
  const results = await runLanes(plan, lanes, start, undefined, stop.signal)
  if (process.exitCode === undefined) process.exitCode = results.some((r) => r.status !== 0) ? 1 : 0
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) await main()
