/**
 * A lock against section submits across server processes: two servers started as `pnpm start` starts them,
 * sharing one PostgreSQL database; 50 section POSTs split over both, the lock sent to one of them while they are
 * in flight. Every submit accepted was written before the lock (its event precedes the lock's), none after; the
 * stored values are the last accepted submit's; after the lock's answer both servers refuse.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { PgLive } from "@forms/adapters-sql"
import { testDatabaseUrl } from "./harness.js"

const serverDir = fileURLToPath(new URL("..", import.meta.url))
const tsxBin = fileURLToPath(new URL("../node_modules/.bin/tsx", import.meta.url))
const key = "fok_locks__test_key_0123456789abcdefghijklmnop"
const portal = "/p/artist/locks-portal-token-0001"
const section = "as-locks-travel"

const fixture = {
  organisations: [{ id: "org-lk", name: "Locks organisation" }],
  events: [{ id: "ev-lk", organisation_id: "org-lk", name: "Locks festival", parent_event_id: null }],
  event_sections: [],
  time_slots: [],
  form_schemas: [{
    id: "fs-lk-advance", organisation_id: "org-lk", event_id: null, name: "Advance", type: "artist_advance", status: "published",
    public_token: "locks-advance-token-0001", previous_public_token: null, token_rotated_at: null, opens_at: null, closes_at: null,
    tags: [], sections: [{ id: "fsec-lk-travel", name: "Travel", position: 1 }],
    fields: [{
      id: "f-lk-notes", section_id: "fsec-lk-travel", slug: "travel_notes", label: "Travel notes", type: "text", is_required: true,
      options: null, validation_rules: null, is_unique: false, position: 1, maps_to: null
    }]
  }],
  master_artists: [{ id: "ma-lk", organisation_id: "org-lk", name: "The Lockers", deleted_at: null }],
  engagements: [{
    id: "eng-lk", organisation_id: "org-lk", event_id: "ev-lk", master_artist_id: "ma-lk", portal_token: "locks-portal-token-0001",
    advance_sections: [{ id: section, name: "Travel", position: 1 }]
  }],
  api_keys: [{ id: "key-lk", organisation_id: "org-lk", name: "locks tests", key }]
}

const query = <A>(url: string, statement: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
  Effect.runPromise(Effect.flatMap(SqlClient.SqlClient, statement).pipe(
    Effect.provide(PgLive.layer({ url, maxConnections: 1 }))
  ))

/** A server process on `databaseUrl`; resolves with its address once it logs "listening". */
const startServer = async (databaseUrl: string, fixtureFile: string) => {
  const child = spawn(tsxBin, ["--conditions=@forms/source", "src/main.ts"], {
    cwd: serverDir,
    env: {
      ...process.env,
      INIT_CWD: serverDir,
      PORT: "0",
      DATABASE_URL: databaseUrl,
      FIXTURE_FILE: fixtureFile,
      LOG_LEVEL: "info",
      PORTAL_RATE_LIMIT_PER_MINUTE: "1000"
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

const send = async (url: string, method: string, body: unknown, headers: Record<string, string> = {}) => {
  const response = await fetch(url, { method, headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) })
  return { status: response.status, body: (await response.json()) as Record<string, any> }
}

describe.skipIf(testDatabaseUrl === undefined)("a section lock on two server processes sharing PostgreSQL", () => {
  const name = `forms_locks_procs_${Date.now()}_${Math.floor(Math.random() * 1e6)}`
  const servers: Array<{ readonly child: ChildProcess; readonly address: string }> = []
  let databaseUrl = ""

  beforeAll(async () => {
    await query(testDatabaseUrl ?? "", (sql) => sql.unsafe(`CREATE DATABASE ${name}`))
    const url = new URL(testDatabaseUrl ?? "")
    url.pathname = `/${name}`
    databaseUrl = url.href
    const fixtureFile = join(mkdtempSync(join(tmpdir(), "forms-locks-")), "fixture.json")
    writeFileSync(fixtureFile, JSON.stringify(fixture))
    // One after the other: the second finds the migrations applied and the fixture loaded (a no-op).
    servers.push(await startServer(databaseUrl, fixtureFile))
    servers.push(await startServer(databaseUrl, fixtureFile))
  }, 200_000)

  afterAll(async () => {
    await Promise.all(servers.map((server) =>
      new Promise<void>((resolve) => {
        if (server.child.exitCode !== null) return resolve()
        server.child.on("exit", () => resolve())
        server.child.kill("SIGTERM")
      })
    ))
    await query(testDatabaseUrl ?? "", (sql) => sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
  }, 60_000)

  it("50 section POSTs over both servers against one lock: every 200 before the lock, none after", async () => {
    const [a, b] = servers.map((s) => s.address)
    const on = (i: number) => (i % 2 === 0 ? a : b) ?? ""
    const submits = Array.from({ length: 50 }, async (_, i) => {
      await new Promise((r) => setTimeout(r, 2 * i))
      const res = await send(`${on(i)}${portal}/sections/${section}`, "POST", { values: { travel_notes: `submit ${i}` } })
      return { i, ...res }
    })
    const lock = (async () => {
      await new Promise((r) => setTimeout(r, 50))
      return send(`${b}/admin/engagements/eng-lk/sections/${section}`, "PATCH", { locked: true }, { authorization: `Bearer ${key}` })
    })()
    const [locked, answers] = await Promise.all([lock, Promise.all(submits)])
    expect(locked.status).toBe(200)
    for (const answer of answers) expect([200, 409]).toContain(answer.status)
    for (const answer of answers.filter((x) => x.status === 409)) expect(answer.body["error"]["code"]).toBe("SECTION_LOCKED")
    expect(answers.some((x) => x.status === 409)).toBe(true)
    // After the lock's answer, both servers refuse.
    for (const address of [a, b]) {
      const late = await send(`${address}${portal}/sections/${section}`, "POST", { values: { travel_notes: "late" } })
      expect([late.status, late.body["error"]["code"]]).toEqual([409, "SECTION_LOCKED"])
    }
    const events = await query(databaseUrl, (sql) => sql<{ readonly type: string; readonly note: string | null }>`
      SELECT type, payload->'values'->>'travel_notes' AS note FROM outbox
      WHERE payload->>'section_id' = ${section} ORDER BY seq`)
    const lockIndex = events.findIndex((e) => e.type === "section.locked")
    expect(lockIndex).toBeGreaterThanOrEqual(0)
    expect(events.slice(lockIndex + 1)).toEqual([])
    const submitted = events.filter((e) => e.type === "section.submitted")
    expect(submitted.map((e) => e.note ?? "").sort()).toEqual(answers.filter((x) => x.status === 200).map((x) => `submit ${x.i}`).sort())
    const shown = await (await fetch(`${a}${portal}/sections/${section}`)).json() as { data: { values: Record<string, unknown> } }
    expect(shown.data.values["travel_notes"]).toBe(submitted.at(-1)?.note)
  }, 120_000)
})
