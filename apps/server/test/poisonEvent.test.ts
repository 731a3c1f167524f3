/**
 * A poison event for real: a handler that kills its server process (SIGKILL) on every delivery. Each
 * restart claims the event again (after its lease) and dies; the claim after the last interrupted
 * attempt of the round (3 in poisonServer.ts, to keep restarts few; 10 by default, tested in the
 * domain and on the SQL ports) parks it dead, and the server then runs on.
 */
import { describe, expect, it } from "vitest"
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { PgLive } from "@forms/adapters-sql"
import { interruptedAttemptError } from "@forms/domain"
import { backends } from "./backends.js"
import { testDatabaseUrl } from "./harness.js"

const serverDir = fileURLToPath(new URL("..", import.meta.url))
const tsxBin = fileURLToPath(new URL("../node_modules/.bin/tsx", import.meta.url))
const contactForm = "/public/forms/test-contact-token-0001"

const started: Array<ChildProcess> = []

// One node process (no tsx wrapper process), so that the handler's SIGKILL ends the very process spawned.
const startServer = (env: Record<string, string>) => {
  const child = spawn(process.execPath, ["--conditions=@forms/source", "--import", "tsx", "test/poisonServer.ts"], {
    cwd: serverDir,
    env: { ...process.env, INIT_CWD: serverDir, ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  started.push(child)
  return child
}

const watch = (child: ChildProcess) => {
  let output = ""
  child.stdout?.on("data", (chunk) => (output += String(chunk)))
  child.stderr?.on("data", (chunk) => (output += String(chunk)))
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.once("exit", (code, signal) => resolve(signal ?? code))
  )
  const lines = () => output.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as Record<string, unknown>)
  const waitFor = async (message: string, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs
    while (Date.now() < deadline) {
      const line = lines().find((l) => l["message"] === message)
      if (line !== undefined) return line["annotations"] as Record<string, string>
      if (child.exitCode !== null || child.signalCode !== null) break
      await new Promise((r) => setTimeout(r, 50))
    }
    throw new Error(`no "${message}" line; output:\n${output}`)
  }
  return { exited, waitFor, output: () => output }
}

const withTimeout = <A>(promise: Promise<A>, ms: number, what: string): Promise<A> =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: no end after ${ms} ms`)), ms))])

const postJson = async (url: string, body: unknown) => {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
  return { status: response.status, body: (await response.json()) as { data: Record<string, unknown> } }
}

/** `pnpm cli events dead` on the embedded database in `dataDir`: its rows' attempts and last errors. */
const deadByCli = async (dataDir: string) => {
  const child = spawn(tsxBin, ["--conditions=@forms/source", "src/cli.ts", "events", "dead"], {
    cwd: serverDir,
    env: { ...process.env, INIT_CWD: serverDir, DATA_DIR: dataDir, LOG_LEVEL: "error" },
    stdio: ["ignore", "pipe", "pipe"]
  })
  const run = watch(child)
  expect(await withTimeout(run.exited, 90_000, "events dead")).toBe(0)
  const rows = run.output().split("\n").filter((line) => /^[0-9a-f-]{36}\t/.test(line)).map((line) => line.split("\t"))
  return rows.map(([, , attempts, lastError]) => ({ attempts: Number(attempts), last_error: lastError ?? null }))
}

const onPostgres = <A>(url: string, effect: Effect.Effect<A, unknown, SqlClient.SqlClient>) =>
  Effect.runPromise(Effect.scoped(effect.pipe(Effect.provide(PgLive.layer({ url })))))

for (const backend of backends) {
  describe(`a handler that kills its process (${backend})`, () => {
    it("is given the event once per restart, 3 times; then the event is dead, marked interrupted, and the server runs on", async () => {
      const schema = `poison_${Date.now()}_${Math.floor(Math.random() * 1e6)}`
      const dataDir = mkdtempSync(join(tmpdir(), "forms-poison-"))
      const url = backend === "postgres" ? testDatabaseUrl : undefined
      const env: Record<string, string> = url === undefined ? { DATA_DIR: dataDir } : { POISON_DATABASE_URL: url, POISON_SCHEMA: schema }
      if (url !== undefined) await onPostgres(url, Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(`CREATE SCHEMA ${schema}`)))
      try {
        // Start 1: a submit records the event; its delivery kills the process.
        const first = watch(startServer(env))
        const { address = "" } = await first.waitFor("listening", 90_000)
        const origin = address.replace(/\/$/, "")
        const created = await postJson(`${origin}${contactForm}/submissions`, { idempotency_key: "poison-0001-0123456789abcdef" })
        const id = String(created.body.data["id"])
        const submitted = await postJson(`${origin}${contactForm}/submissions/${id}/submit`, { values: { email: "poison@example.org" } })
        expect(submitted.status).toBe(200)
        expect(await withTimeout(first.exited, 30_000, "start 1")).toBe("SIGKILL")
        // Starts 2 and 3: each claims the event once its lease (6 s) has run out, and dies.
        for (let start = 2; start <= 3; start++) {
          const run = watch(startServer(env))
          const exit = await withTimeout(run.exited, 90_000, `start ${start}`).catch((error: unknown) => `${String(error)}\n${run.output().slice(-4_000)}`)
          expect(exit).toBe("SIGKILL")
        }
        // Start 4: the claim finds the 3rd attempt interrupted and parks the event dead instead.
        const lastChild = startServer(env)
        const last = watch(lastChild)
        const parked = await last.waitFor("event parked dead: its last attempt was interrupted", 90_000)
        expect(Number(parked["attempts"])).toBe(3)
        await new Promise((r) => setTimeout(r, 1_000))
        expect([lastChild.exitCode, lastChild.signalCode]).toEqual([null, null])
        lastChild.kill("SIGTERM")
        expect(await withTimeout(last.exited, 30_000, "stop")).toBe(0)
        const dead = url === undefined
          ? await deadByCli(dataDir)
          : await onPostgres(url, Effect.flatMap(SqlClient.SqlClient, (sql) =>
            sql<{ readonly attempts: number; readonly last_error: string | null }>`
              SELECT attempts, last_error FROM ${sql(schema)}.outbox WHERE dead_at IS NOT NULL AND delivered_at IS NULL`))
        expect(dead.map((row) => [row.attempts, row.last_error])).toEqual([[3, interruptedAttemptError]])
      } finally {
        for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
        rmSync(dataDir, { recursive: true, force: true })
        if (url !== undefined) await onPostgres(url, Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(`DROP SCHEMA ${schema} CASCADE`)))
      }
    }, 600_000)
  })
}
