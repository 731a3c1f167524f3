/** The server and the CLI as processes, started the way `pnpm start` and `pnpm cli` start them. */
import { describe, expect, it } from "vitest"
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { fixturePath } from "./harness.js"

const serverDir = fileURLToPath(new URL("..", import.meta.url))
const rootDir = fileURLToPath(new URL("../../..", import.meta.url))
const tsxBin = fileURLToPath(new URL("../node_modules/.bin/tsx", import.meta.url))
// What `pnpm start` (node with tsx's loader: one process) and `pnpm cli` (tsx) run, without pnpm around them.
const tsx = (script: string, args: ReadonlyArray<string>, env: Record<string, string>) =>
  spawn(
    script === "src/main.ts" ? process.execPath : tsxBin,
    [...(script === "src/main.ts" ? ["--import", "tsx"] : []), "--conditions=@forms/source", script, ...args],
    {
      cwd: serverDir,
      env: { ...process.env, INIT_CWD: serverDir, LOG_LEVEL: "info", ...env },
      stdio: ["ignore", "pipe", "pipe"]
    }
  )

/**
 * The pnpm running these tests (`pnpm test` names its entry in `npm_execpath`), run with this node: pnpm itself,
 * as a developer runs it, never a wrapper around it (`npx` adds a process of npm's own above pnpm).
 */
const pnpmEntry = /pnpm\.c?js$/.test(process.env["npm_execpath"] ?? "") ? process.env["npm_execpath"] : undefined
const noPnpm = "skipped: run through pnpm (`pnpm test`), which names its own entry in npm_execpath"

/** `pnpm start` at the repository's root, in a process group of its own. */
const pnpmStart = (entry: string, env: Record<string, string>) =>
  spawn(process.execPath, [entry, "start"], {
    cwd: rootDir,
    detached: true,
    env: { ...process.env, LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })

/** Whether any process of the group `pgid` is still there. */
const groupAlive = (pgid: number): boolean => {
  try {
    process.kill(-pgid, 0)
    return true
  } catch {
    return false
  }
}

interface Finished { readonly code: number | null; readonly stdout: string; readonly stderr: string }

const collect = (child: ChildProcess) => {
  let stdout = ""
  let stderr = ""
  child.stdout?.on("data", (chunk) => (stdout += String(chunk)))
  child.stderr?.on("data", (chunk) => (stderr += String(chunk)))
  const finished = new Promise<Finished>((resolve) =>
    child.on("exit", (code) => resolve({ code, stdout, stderr }))
  )
  const lines = () => stdout.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as Record<string, unknown>)
  const waitFor = async (message: string, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs
    while (Date.now() < deadline) {
      const line = lines().find((l) => l["message"] === message)
      if (line !== undefined) return line
      if (child.exitCode !== null) break
      await new Promise((r) => setTimeout(r, 100))
    }
    throw new Error(`no "${message}" line; stdout:\n${stdout}\nstderr:\n${stderr}`)
  }
  return { finished, lines, waitFor }
}

const annotations = (line: Record<string, unknown>) => line["annotations"] as Record<string, string>

describe("the server process", () => {
  it("starts on an empty embedded database with the demo, serves it, logs templates, stops on SIGTERM with 0", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "forms-demo-"))
    try {
      const child = tsx("src/main.ts", [], { PORT: "0", DATA_DIR: dataDir })
      const run = collect(child)
      const listening = annotations(await run.waitFor("listening", 90_000))
      const demoUrl = listening["demo_fs-volunteers"] ?? ""
      expect(demoUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/public\/forms\/[A-Za-z0-9._~-]{16,}$/)
      const portalUrl = listening["demo_portal_eng-demo"] ?? ""
      expect(portalUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/p\/artist\/[A-Za-z0-9._~-]{16,}$/)
      const portal = (await (await fetch(portalUrl)).json()) as { data: { sections: ReadonlyArray<{ id: string; available: boolean }> } }
      expect(portal.data.sections.map((s) => [s.id, s.available])).toEqual([["as-tech", true], ["as-hosp", true], ["as-travel", false]])
      const form = await fetch(demoUrl)
      expect(form.status).toBe(200)
      const body = (await form.json()) as { data: { name: string; fields: ReadonlyArray<unknown> } }
      expect(body.data.name).toBe("Volunteers 2027")
      // The demo organiser key works, and appears in no log line but the start-up one.
      const demoKey = listening["demo_organiser_key"] ?? ""
      expect(demoKey).toMatch(/^fok_/)
      const organisation = await fetch(`${new URL(demoUrl).origin}/admin/organisation`, { headers: { authorization: `Bearer ${demoKey}` } })
      expect(((await organisation.json()) as { data: unknown }).data).toEqual({ id: "org-demo", name: "Demo Festivals" })
      await fetch(`${demoUrl}/time-slots`, { headers: { "x-request-id": "trace-1" } })
      // A request in flight when SIGTERM arrives is finished: its body is still arriving.
      let release = () => {}
      const slowBody = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(`{"idempotency_key":"in-flight-0123456789abcdef",`))
          release = () => {
            controller.enqueue(new TextEncoder().encode(`"values":{}}`))
            controller.close()
          }
        }
      })
      const inFlight = fetch(`${demoUrl}/submissions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: slowBody,
        duplex: "half"
      } as RequestInit)
      await new Promise((r) => setTimeout(r, 300))
      const started = Date.now()
      child.kill("SIGTERM")
      await new Promise((r) => setTimeout(r, 500))
      release()
      expect((await inFlight).status).toBe(201)
      const { code } = await run.finished
      expect(code).toBe(0)
      expect(Date.now() - started).toBeLessThan(10_000)
      const requests = run.lines().filter((l) => l["message"] === "request").map(annotations)
      expect(requests).toContainEqual(expect.objectContaining({
        request_id: "trace-1", method: "GET", route: "/public/forms/:token/time-slots", status: 200
      }))
      const afterStart = JSON.stringify(run.lines().filter((l) => l["message"] !== "listening"))
      for (const url of [demoUrl, portalUrl]) expect(afterStart).not.toContain(url.split("/").at(-1))
      expect(afterStart).not.toContain(demoKey.slice(4))
      expect(requests).toContainEqual(expect.objectContaining({ route: "/admin/organisation", status: 200 }))
      // The dispatcher stops before the database closes.
      const messages = run.lines().map((l) => l["message"])
      expect(messages.indexOf("event dispatcher stopped")).toBeGreaterThan(0)
      expect(messages.indexOf("event dispatcher stopped")).toBeLessThan(messages.indexOf("stopped: requests finished, database closed"))
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, 120_000)

  // A supervisor signals pnpm alone (a container's stop) or the whole group (systemd, a terminal's Ctrl-C): pnpm and
  // the server each get it, pnpm relays it again, and the stop is still a clean one.
  it.skipIf(pnpmEntry === undefined).each([
    ["SIGTERM", "pnpm alone"],
    ["SIGTERM", "the whole process group"],
    ["SIGINT", "the whole process group"]
  ] as const)("`pnpm start` stopped by %s sent to %s exits 0 after a graceful stop, reporting no failure", async (signal, to) => {
    if (pnpmEntry === undefined) return
    const dataDir = mkdtempSync(join(tmpdir(), "forms-pnpm-start-"))
    const child = pnpmStart(pnpmEntry, { PORT: "0", DATA_DIR: dataDir })
    const pgid = child.pid ?? 0
    try {
      const run = collect(child)
      await run.waitFor("listening", 120_000)
      if (to === "pnpm alone") child.kill(signal)
      else process.kill(-pgid, signal)
      const { code, stdout, stderr } = await run.finished
      const printed = `${stdout}\n${stderr}`
      expect(printed).not.toMatch(/ELIFECYCLE|Command failed|ERR_PNPM/)
      expect(code).toBe(0)
      expect(run.lines().map((l) => l["message"])).toContain("stopped: requests finished, database closed")
      // Nothing of the group is left behind (a server orphaned by its launcher would still hold the port); the
      // server's esbuild service ends when the server's pipe to it closes, just after.
      await expect.poll(() => groupAlive(pgid), { timeout: 10_000 }).toBe(false)
    } finally {
      if (groupAlive(pgid)) process.kill(-pgid, "SIGKILL")
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, 180_000)

  if (pnpmEntry === undefined) it.skip(`\`pnpm start\` stopped by a signal: ${noPnpm}`, () => {})

  it("refuses a bad configuration with a message naming the variable, exit code not 0", async () => {
    const run = collect(tsx("src/main.ts", [], { PORT: "eighty", MAX_ARRAY_ITEMS: "0" }))
    const { code, stderr } = await run.finished
    expect(code).not.toBe(0)
    expect(stderr).toContain("PORT must be a whole number")
    expect(stderr).toContain("MAX_ARRAY_ITEMS")
  }, 60_000)
})

describe("the CLI process", () => {
  it("imports a fixture, rotates a token, issues a portal link that a server then serves, lists and retries events", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "forms-cli-"))
    try {
      const env = { DATA_DIR: dataDir, PUBLIC_BASE_URL: "https://forms.example.org" }
      const imported = await collect(tsx("src/cli.ts", ["import", fixturePath], env)).finished
      expect(imported.stderr).toBe("")
      expect(imported.code).toBe(0)
      expect(imported.stdout).toMatch(/^Imported .*fixture\.json \(.*form_schemas: 6.*\); \d+ rows changed\.\n$/)
      const rotated = await collect(tsx("src/cli.ts", ["rotate-token", "fs-open"], env)).finished
      expect(rotated.code).toBe(0)
      expect(rotated.stdout).toMatch(/\nhttps:\/\/forms\.example\.org\/public\/forms\/[A-Za-z0-9_-]{43}\n$/)
      const missing = await collect(tsx("src/cli.ts", ["rotate-token", "fs-nope"], env)).finished
      expect(missing.code).toBe(1)
      expect(missing.stderr).toContain(`No form schema has the id "fs-nope".`)
      const unknown = await collect(tsx("src/cli.ts", ["frobnicate"], env)).finished
      expect(unknown.code).toBe(2)
      expect(unknown.stderr).toContain("rotate-token <schema_id>")
      expect(unknown.stderr).toContain("portal-link <engagement_id>")
      const linked = await collect(tsx("src/cli.ts", ["portal-link", "eng-cli"], env)).finished
      expect(linked.code).toBe(0)
      expect(linked.stdout).toMatch(/\nhttps:\/\/forms\.example\.org\/p\/artist\/[A-Za-z0-9_-]{43}\n$/)
      const dead = await collect(tsx("src/cli.ts", ["events", "dead"], env)).finished
      expect([dead.code, dead.stdout]).toEqual([0, "No dead events.\n"])
      const retry = await collect(tsx("src/cli.ts", ["events", "retry", "00000000-0000-4000-8000-000000000000"], env)).finished
      expect(retry.code).toBe(1)
      expect(retry.stderr).toContain(`No dead event has the id "00000000-0000-4000-8000-000000000000".`)
      // An organisation and its key, made by the CLI; the key is printed once and listed by its first 8 characters.
      const organised = await collect(tsx("src/cli.ts", ["organisation", "create", "Acme Festivals"], env)).finished
      expect(organised.code).toBe(0)
      const organisationId = organised.stdout.trim().split("\n").at(-1) ?? ""
      expect(organisationId).toMatch(/^[0-9a-f-]{36}$/)
      const keyed = await collect(tsx("src/cli.ts", ["api-key", "create", organisationId, "--name", "ci"], env)).finished
      expect(keyed.code).toBe(0)
      const apiKey = keyed.stdout.trim().split("\n").at(-1) ?? ""
      expect(apiKey).toMatch(/^fok_[A-Za-z0-9_-]{43}$/)
      const listed = await collect(tsx("src/cli.ts", ["api-key", "list", organisationId], env)).finished
      expect(listed.code).toBe(0)
      expect(listed.stdout).toContain(`\tci\t${apiKey.slice(0, 8)}\t`)
      expect(listed.stdout).not.toContain(apiKey.slice(8))
      const noOrganisation = await collect(tsx("src/cli.ts", ["api-key", "create", "org-nope"], env)).finished
      expect([noOrganisation.code, noOrganisation.stderr]).toEqual([1, expect.stringContaining(`No organisation has the id "org-nope".`)])
      // The printed link works once a server runs on that database; the fixture's link no longer does.
      const server = tsx("src/main.ts", [], { PORT: "0", DATA_DIR: dataDir })
      const running = collect(server)
      const address = annotations(await running.waitFor("listening", 90_000))["address"] ?? ""
      const path = new URL(linked.stdout.trim().split("\n").at(-1) ?? "").pathname
      expect((await fetch(address + path)).status).toBe(200)
      expect((await fetch(`${address}/p/artist/test-portal-cli-0001`)).status).toBe(404)
      const organisation = await fetch(`${address}/admin/organisation`, { headers: { authorization: `Bearer ${apiKey}` } })
      expect(await organisation.json()).toEqual({ data: { id: organisationId, name: "Acme Festivals" } })
      server.kill("SIGTERM")
      expect((await running.finished).code).toBe(0)
      const keyId = listed.stdout.trim().split("\n").at(-1)?.split("\t")[0] ?? ""
      const revoked = await collect(tsx("src/cli.ts", ["api-key", "revoke", keyId], env)).finished
      expect(revoked.code).toBe(0)
      const relisted = await collect(tsx("src/cli.ts", ["api-key", "list", organisationId], env)).finished
      expect(relisted.stdout).toMatch(/\trevoked \d{4}-/)
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, 480_000)
})
