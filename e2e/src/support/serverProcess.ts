/** Our server as a real process (`node --import tsx apps/server/src/main.ts`, or the built dist with E2E_SERVER=dist). */
import { type ChildProcess, spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { createServer } from "node:net"
import { join } from "node:path"
import { e2eDir, fixturePath, repoRoot } from "./paths.js"
import { sleep } from "./http.js"

export interface ServerProcess {
  readonly pid: number
  readonly origin: string
  readonly child: ChildProcess
  /** The last 32 KB of stdout and stderr without request lines, for failure messages. */
  readonly output: () => string
  readonly exited: Promise<number | null>
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone. */
  readonly stop: (graceMs?: number) => Promise<void>
}

export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      probe.close(() => resolve(port))
    })
  })

const distMain = join(repoRoot, "apps/server/dist/main.js")
const sourceMain = join(repoRoot, "apps/server/src/main.ts")

/** What runs: the TypeScript sources through tsx by default (always current), the dist on request. */
export const serverCommand = (): { readonly args: ReadonlyArray<string>; readonly label: string } =>
  process.env["E2E_SERVER"] === "dist" && existsSync(distMain)
    ? { args: [distMain], label: "node apps/server/dist/main.js" }
    : { args: ["--conditions=@forms/source", "--import", "tsx", sourceMain], label: "node --import tsx apps/server/src/main.ts" }

export interface StartOptions {
  readonly databaseUrl: string
  readonly port: number
  readonly env?: Record<string, string>
  readonly readyTimeoutMs?: number
}

/** Starts the server and waits until GET /health/live answers (start-up runs migrations and the fixture first). */
export const startServerProcess = async (options: StartOptions): Promise<ServerProcess> => {
  const { args } = serverCommand()
  const child = spawn(process.execPath, [...args], {
    cwd: e2eDir,
    env: {
      ...process.env,
      INIT_CWD: e2eDir,
      HOST: "127.0.0.1",
      PORT: String(options.port),
      DATABASE_URL: options.databaseUrl,
      FIXTURE_FILE: fixturePath,
      LOG_LEVEL: process.env["E2E_SERVER_LOG_LEVEL"] ?? "warn",
      SUBMIT_RATE_LIMIT_PER_HOUR: "1000000",
      WRITE_RATE_LIMIT_PER_HOUR: "1000000",
      ...options.env
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  // Request lines (LOG_LEVEL=info) would crowd out what matters: start-up, warnings, errors.
  const keep = (chunk: unknown) => {
    const lines = String(chunk).split("\n").filter((line) => !line.includes('"message":"request"'))
    output = (output + lines.join("\n")).slice(-32_768)
  }
  child.stdout?.on("data", keep)
  child.stderr?.on("data", keep)
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
  const origin = `http://127.0.0.1:${options.port}`
  const stop = async (graceMs = 15_000) => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill("SIGTERM")
    const timer = setTimeout(() => child.kill("SIGKILL"), graceMs)
    await exited
    clearTimeout(timer)
  }
  const deadline = Date.now() + (options.readyTimeoutMs ?? 90_000)
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}:\n${output}`)
    try {
      const response = await fetch(`${origin}/health/live`, { signal: AbortSignal.timeout(2_000) })
      await response.text()
      if (response.status === 200 && child.pid !== undefined) {
        return { pid: child.pid, origin, child, output: () => output, exited, stop }
      }
    } catch {
      // not listening yet
    }
    await sleep(200)
  }
  await stop(1_000)
  throw new Error(`the server did not answer within ${options.readyTimeoutMs ?? 90_000} ms:\n${output}`)
}

/** Resident set size of a process in bytes (Linux /proc), or undefined once it is gone. */
export const rssOf = async (pid: number): Promise<number | undefined> => {
  const { readFile } = await import("node:fs/promises")
  try {
    const status = await readFile(`/proc/${pid}/status`, "utf8")
    const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1]
    return kb === undefined ? undefined : Number(kb) * 1024
  } catch {
    return undefined
  }
}

/** User + system CPU seconds of a process so far (Linux /proc, clock ticks of 1/100 s), or undefined once it is gone. */
export const cpuSecondsOf = async (pid: number): Promise<number | undefined> => {
  const { readFile } = await import("node:fs/promises")
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8")
    // Fields after the command name in parentheses; utime and stime are the 14th and 15th fields.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return undefined
  }
}
