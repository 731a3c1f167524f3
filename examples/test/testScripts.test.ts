/**
 * How `pnpm test` runs: scripts/testLanes.mjs runs every package's suite in lanes side by side, each job's output
 * in one block, every job even after a failure; e2e's `test` runs the abuse and the fault suites, the second even
 * when the first failed.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { delimiter, join, resolve } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { afterAll, describe, expect, it } from "vitest"

const root = resolve(fileURLToPath(new URL("../..", import.meta.url)))

interface Job {
  readonly name: string
  readonly dir: string
  readonly script: string
  readonly args?: ReadonlyArray<string>
}
interface Result {
  readonly name: string
  readonly status: number | null
  readonly ms: number
}
interface LanesModule {
  readonly plan: ReadonlyArray<Job>
  readonly laneCount: (raw?: string) => number
  readonly runLanes: (
    jobs: ReadonlyArray<Job>,
    lanes: number,
    start: (job: Job) => ChildProcess,
    write: (text: string) => void
  ) => Promise<ReadonlyArray<Result>>
}

const lanesModule = async (): Promise<LanesModule> =>
  (await import(pathToFileURL(join(root, "scripts/testLanes.mjs")).href)) as LanesModule

/** A job that prints `lines` lines a few milliseconds apart, then exits with `exit`. */
const program = (name: string, lines: number, exit: number) =>
  `for (let i = 0; i < ${lines}; i++) { console.log("${name} line " + i); await new Promise((r) => setTimeout(r, 15)) }` +
  ` console.log(" Tests  ${lines} passed (${lines})"); process.exit(${exit})`

const temporary: Array<string> = []
afterAll(() => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true })
})

describe("scripts/testLanes.mjs", () => {
  it("runs every job in two lanes at once, prints each job's output in one block, and runs on after a failure", async () => {
    const { runLanes } = await lanesModule()
    const jobs: ReadonlyArray<Job> = [
      { name: "a", dir: ".", script: program("a", 20, 0) },
      { name: "b", dir: ".", script: program("b", 20, 3) },
      { name: "c", dir: ".", script: program("c", 5, 0) }
    ]
    let written = ""
    const started = Date.now()
    const results = await runLanes(jobs, 2, (job) =>
      spawn(process.execPath, ["--input-type=module", "-e", job.script], { stdio: ["ignore", "pipe", "pipe"] }),
      (text) => {
        written += text
      })
    expect(results.map((r) => [r.name, r.status])).toEqual([["a", 0], ["b", 3], ["c", 0]])
    // Side by side: a and b overlap in time, so the run is shorter than the sum of the jobs.
    expect(Date.now() - started).toBeLessThan(results.reduce((sum, r) => sum + r.ms, 0))
    for (const name of ["a", "b", "c"]) {
      const lines = written.split("\n").map((line, index) => [line, index] as const).filter(([line]) => line.startsWith(`${name} line `))
      expect(lines.length).toBeGreaterThan(0)
      const first = lines[0]?.[1] ?? 0
      expect(lines.map(([, index]) => index), `${name}'s lines in one block`).toEqual(lines.map((_, i) => first + i))
    }
    expect(written).toContain("──── b: FAILED (exit 3)")
    expect(written).toMatch(/lanes: 3 jobs in 2 lanes/)
    // .ci/run adds up the "Tests N passed" lines of the whole log.
    const passed = [...written.matchAll(/(^|[ :])Tests +(\d+) passed/gm)].reduce((sum, m) => sum + Number(m[2]), 0)
    expect(passed).toBe(45)
  })

  it("counts a job that cannot start as failed, once, and runs the others", async () => {
    const { runLanes } = await lanesModule()
    const jobs: ReadonlyArray<Job> = [
      { name: "missing", dir: ".", script: "" },
      { name: "ok", dir: ".", script: program("ok", 2, 0) }
    ]
    let written = ""
    const results = await runLanes(jobs, 1, (job) =>
      job.name === "missing"
        ? spawn(join(root, "no-such-program"), [], { stdio: ["ignore", "pipe", "pipe"] })
        : spawn(process.execPath, ["--input-type=module", "-e", job.script], { stdio: ["ignore", "pipe", "pipe"] }),
      (text) => {
        written += text
      })
    expect(results.map((r) => [r.name, r.status])).toEqual([["missing", 1], ["ok", 0]])
    expect(written.match(/──── missing: FAILED \(exit 1\)/g)).toHaveLength(1)
    expect(written).toContain("lanes: missing could not start")
  })

  it("reads TEST_LANES as a whole number of at least 1, else 2 lanes", async () => {
    const { laneCount } = await lanesModule()
    expect([undefined, "", "0", "-1", "1.5", "x", "1", "3"].map((raw) => laneCount(raw))).toEqual([2, 2, 2, 2, 2, 2, 1, 3])
  })

  it("names every package that has tests, e2e's two suites among them, each by a script it has", async () => {
    const { plan } = await lanesModule()
    // The workspace's packages: pnpm-workspace.yaml's entries, a trailing /* naming every folder inside.
    const entries = [...readFileSync(join(root, "pnpm-workspace.yaml"), "utf8").matchAll(/^ {2}- (\S+)$/gm)].map((m) => m[1] ?? "")
    const dirs = entries.flatMap((entry) =>
      entry.endsWith("/*")
        ? readdirSync(join(root, entry.slice(0, -2)), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => `${entry.slice(0, -2)}/${d.name}`)
        : [entry])
    const withTests = dirs.filter((dir) => existsSync(join(root, dir, "package.json")))
      .filter((dir) => (JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8")) as { scripts?: Record<string, string> }).scripts?.["test"] !== undefined)
    expect(withTests.length).toBeGreaterThan(5)
    for (const dir of withTests) expect(plan.some((job) => job.dir === dir), dir).toBe(true)
    for (const job of plan) {
      const scripts = (JSON.parse(readFileSync(join(root, job.dir, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts
      expect(scripts[job.script], `${job.dir} ${job.script}`).toBeDefined()
    }
    expect(plan.filter((job) => job.dir === "e2e").map((job) => job.script).sort()).toEqual(["test:abuse", "test:faults"])
    // A package split in shards runs every shard: 1/n to n/n.
    for (const dir of new Set(plan.map((job) => job.dir))) {
      const shards = plan.filter((job) => job.dir === dir).flatMap((job) => job.args ?? []).flatMap((arg) => /^--shard=(\d+)\/(\d+)$/.exec(arg) ?? [])
      if (shards.length === 0) continue
      const total = Number(shards[2])
      const ks = plan.filter((job) => job.dir === dir).map((job) => Number(/^--shard=(\d+)\//.exec(job.args?.[0] ?? "")?.[1]))
      expect(ks.sort((x, y) => x - y), dir).toEqual(Array.from({ length: total }, (_, i) => i + 1))
    }
  })
})

describe("e2e's test script", () => {
  it("runs the fault suite after a failed abuse suite, reports both, and exits non-zero", () => {
    // A vitest of our own first on PATH: it records its arguments and fails the abuse suite.
    const bin = mkdtempSync(join(tmpdir(), "forms-suites-"))
    temporary.push(bin)
    const record = join(bin, "calls.txt")
    writeFileSync(join(bin, "vitest"), `#!/bin/sh\necho "$*" >> "${record}"\ncase "$*" in *abuse*) exit 1;; esac\nexit 0\n`)
    chmodSync(join(bin, "vitest"), 0o755)
    const run = spawnSync(process.execPath, [join(root, "e2e/scripts/suites.mjs")], {
      cwd: join(root, "e2e"),
      env: { ...process.env, PATH: `${bin}${delimiter}${process.env["PATH"] ?? ""}` },
      encoding: "utf8"
    })
    expect(readFileSync(record, "utf8").trim().split("\n")).toEqual([
      "run --config vitest.abuse.config.ts",
      "run --config vitest.faults.config.ts"
    ])
    expect(run.stdout).toMatch(/the abuse suite FAILED \(exit 1\)/)
    expect(run.stdout).toMatch(/the faults suite passed/)
    expect(run.status).toBe(1)
  })
})
