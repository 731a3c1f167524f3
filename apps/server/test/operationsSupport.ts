/**
 * The server and the CLI as processes for the operations tests (metrics, traces, backups): started the way
 * `pnpm start` and `pnpm cli` start them, over the test fixture plus an organiser key, stopped with SIGTERM.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { fixturePath } from "./harness.js"

const serverDir = fileURLToPath(new URL("..", import.meta.url))
const tsxBin = fileURLToPath(new URL("../node_modules/.bin/tsx", import.meta.url))

export const apiKey = `fok_${"operationsTestKey".repeat(3)}`
export const openForm = "/public/forms/test-open-token-0001"
export const contactForm = "/public/forms/test-contact-token-0001"

/** The test fixture with an organiser key of org-t, written to a fresh folder. */
export const fixtureWithKey = (): string => {
  const fixture = JSON.parse(readFileSync(fixturePath, "utf8")) as Record<string, unknown>
  fixture["api_keys"] = [{ id: "key-ops", organisation_id: "org-t", name: "operations", key: apiKey }]
  const file = join(mkdtempSync(join(tmpdir(), "forms-ops-fixture-")), "fixture.json")
  writeFileSync(file, JSON.stringify(fixture))
  return file
}

export interface Running {
  readonly child: ChildProcess
  readonly lines: () => ReadonlyArray<Record<string, unknown>>
  readonly output: () => string
  readonly waitFor: (message: string, timeoutMs?: number) => Promise<Record<string, string>>
  /** SIGTERM, then the exit code. */
  readonly stop: () => Promise<number | null>
}

const children: Array<ChildProcess> = []

/** Ends every process a test left running (afterAll). */
export const killAll = () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
}

const tsx = (script: string, args: ReadonlyArray<string>, env: Record<string, string>) => {
  const child = spawn(tsxBin, ["--conditions=@forms/source", script, ...args], {
    cwd: serverDir,
    env: { ...process.env, INIT_CWD: serverDir, LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  children.push(child)
  return child
}

export const startServer = (env: Record<string, string>): Running => {
  const child = tsx("src/main.ts", [], { PORT: "0", ...env })
  let stdout = ""
  let stderr = ""
  child.stdout?.on("data", (chunk) => (stdout += String(chunk)))
  child.stderr?.on("data", (chunk) => (stderr += String(chunk)))
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
  const lines = () =>
    stdout.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as Record<string, unknown>)
  const waitFor = async (message: string, timeoutMs = 120_000) => {
    const deadline = Date.now() + timeoutMs
    while (Date.now() < deadline) {
      const line = lines().find((l) => l["message"] === message)
      if (line !== undefined) return line["annotations"] as Record<string, string>
      if (child.exitCode !== null) break
      await new Promise((r) => setTimeout(r, 100))
    }
    throw new Error(`no "${message}" line; stdout:\n${stdout}\nstderr:\n${stderr}`)
  }
  return {
    child,
    lines,
    output: () => stdout + stderr,
    waitFor,
    stop: () => {
      if (child.exitCode === null) child.kill("SIGTERM")
      return exited
    }
  }
}

export interface CliResult {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

export const runCli = (args: ReadonlyArray<string>, env: Record<string, string>): Promise<CliResult> =>
  new Promise((resolve) => {
    const child = tsx("src/cli.ts", args, env)
    let stdout = ""
    let stderr = ""
    child.stdout?.on("data", (chunk) => (stdout += String(chunk)))
    child.stderr?.on("data", (chunk) => (stderr += String(chunk)))
    child.on("exit", (code) => resolve({ code, stdout, stderr }))
  })

export const json = async (response: Response) => (await response.json()) as { data: Record<string, unknown> }

/** A draft of `form` created and submitted with `values`; the submit's status and the submission id. */
export const submitForm = async (base: string, form: string, key: string, values: Record<string, unknown>) => {
  const created = await fetch(`${base}${form}/submissions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ idempotency_key: key })
  })
  const id = String((await json(created)).data["id"])
  const submitted = await fetch(`${base}${form}/submissions/${id}/submit`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ values })
  })
  await submitted.arrayBuffer()
  return { status: submitted.status, id }
}

export const admin = (base: string, method: string, path: string, body?: unknown) =>
  fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })

export const tempDir = (prefix: string) => mkdtempSync(join(tmpdir(), prefix))
