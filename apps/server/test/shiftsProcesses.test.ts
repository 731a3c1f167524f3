/**
 * Places on a slot across server processes (CONTRACT §15): two servers started as `pnpm start` starts them,
 * sharing one PostgreSQL database, take the 7 places of a slot for 60 concurrent submits, exactly 7 of them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ChildProcess, spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { PgLive } from "@forms/adapters-sql"
import { testDatabaseUrl } from "./harness.js"

const serverDir = fileURLToPath(new URL("..", import.meta.url))
const tsxBin = fileURLToPath(new URL("../node_modules/.bin/tsx", import.meta.url))
const fixture = fileURLToPath(new URL("./shifts.fixture.json", import.meta.url))
const form = "/public/forms/shifts-form-token-0001"

const adminQuery = (statement: string) =>
  Effect.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(statement)).pipe(
    Effect.provide(PgLive.layer({ url: testDatabaseUrl ?? "", maxConnections: 1 })),
    Effect.asVoid
  ))

/** A server process on `databaseUrl`; resolves with its address once it logs "listening". */
const startServer = async (databaseUrl: string): Promise<{ readonly child: ChildProcess; readonly address: string }> => {
  const child = spawn(tsxBin, ["--conditions=@forms/source", "src/main.ts"], {
    cwd: serverDir,
    env: {
      ...process.env,
      INIT_CWD: serverDir,
      PORT: "0",
      DATABASE_URL: databaseUrl,
      FIXTURE_FILE: fixture,
      LOG_LEVEL: "info",
      SUBMIT_RATE_LIMIT_PER_HOUR: "1000",
      WRITE_RATE_LIMIT_PER_HOUR: "1000"
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  child.stdout?.on("data", (chunk) => (output += String(chunk)))
  child.stderr?.on("data", (chunk) => (output += String(chunk)))
  const deadline = Date.now() + 90_000
  while (!output.includes(`"message":"listening"`) && Date.now() < deadline && child.exitCode === null) {
    await new Promise((r) => setTimeout(r, 100))
  }
  const line = output.split("\n").find((l) => l.includes(`"message":"listening"`))
  if (line === undefined) throw new Error(`the server did not start:\n${output}`)
  return { child, address: (JSON.parse(line) as { annotations: { address: string } }).annotations.address }
}

const post = async (url: string, body: unknown) => {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
  return { status: response.status, body: (await response.json()) as Record<string, any> }
}

describe.skipIf(testDatabaseUrl === undefined)("places on two server processes sharing PostgreSQL", () => {
  const name = `forms_shifts_procs_${Date.now()}_${Math.floor(Math.random() * 1e6)}`
  const servers: Array<{ readonly child: ChildProcess; readonly address: string }> = []

  beforeAll(async () => {
    await adminQuery(`CREATE DATABASE ${name}`)
    const url = new URL(testDatabaseUrl ?? "")
    url.pathname = `/${name}`
    // One after the other: the second finds the migrations applied and the fixture loaded (a no-op).
    servers.push(await startServer(url.href))
    servers.push(await startServer(url.href))
  }, 200_000)

  afterAll(async () => {
    await Promise.all(servers.map((server) =>
      new Promise<void>((resolve) => {
        if (server.child.exitCode !== null) return resolve()
        server.child.on("exit", () => resolve())
        server.child.kill("SIGTERM")
      })
    ))
    await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  }, 60_000)

  it("60 concurrent submits split over both servers on a slot of capacity 7: exactly 7 succeed, 53 are full", async () => {
    const [a, b] = servers.map((s) => s.address)
    const on = (i: number) => (i % 2 === 0 ? a : b) ?? ""
    const drafts = await Promise.all(Array.from({ length: 60 }, async (_, i) => {
      const created = await post(`${on(i)}${form}/submissions`, {
        idempotency_key: `procs-${String(i).padStart(4, "0")}-0123456789abcdef`,
        values: { email: `v${i}@example.org` }
      })
      expect(created.status).toBe(201)
      return String(created.body["data"]["id"])
    }))
    // Each draft is submitted on the other server than the one that created it.
    const answers = await Promise.all(drafts.map((id, i) => post(`${on(i + 1)}${form}/submissions/${id}/submit`, { values: { shifts: ["sl-race"] } })))
    expect(answers.filter((r) => r.status === 200).length).toBe(7)
    const refused = answers.filter((r) => r.status !== 200)
    expect(refused.every((r) => r.status === 422 && r.body["error"]["fields"]["shifts"][0]["rule"] === "full")).toBe(true)
    for (const address of [a, b]) {
      const slots = (await (await fetch(`${address}${form}/time-slots`)).json()) as { data: ReadonlyArray<{ id: string; remaining: number | null }> }
      expect(slots.data.find((s) => s.id === "sl-race")?.remaining).toBe(0)
    }
  }, 120_000)
})
