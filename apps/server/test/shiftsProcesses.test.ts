/**
 * Places on a slot across server processes (CONTRACT §15): two servers started as `pnpm start` starts them,
 * sharing one PostgreSQL database, take the 7 places of a slot for 60 concurrent submits, exactly 7 of them; a waitlist
 * keeps its order through erasures and through places given up on the manage route, racing new submits (CONTRACT §22).
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

/** Rows of a query on the database at `url`. */
const rowsOf = <A>(url: string, statement: string) =>
  Effect.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe<A & object>(statement)).pipe(
    Effect.provide(PgLive.layer({ url, maxConnections: 1 }))
  )) as Promise<ReadonlyArray<A>>

const organiserKey = "fok_shifts_test_key_0123456789abcdefghijklmnop"

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

const admin = async (url: string, method: string, body?: unknown) => {
  const response = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${organiserKey}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return { status: response.status, text: await response.text() }
}

describe.skipIf(testDatabaseUrl === undefined)("places on two server processes sharing PostgreSQL", () => {
  const name = `forms_shifts_procs_${Date.now()}_${Math.floor(Math.random() * 1e6)}`
  const servers: Array<{ readonly child: ChildProcess; readonly address: string }> = []
  let databaseUrl = ""

  beforeAll(async () => {
    await adminQuery(`CREATE DATABASE ${name}`)
    const url = new URL(testDatabaseUrl ?? "")
    url.pathname = `/${name}`
    databaseUrl = url.href
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

  it("a waitlist on two servers: 60 concurrent submits on capacity 5 give 5 confirmed and 55 waiting in a strict order; " +
    "20 erasures racing 20 submits never confirm above 5 and promote in order of joining", async () => {
    const [a, b] = servers.map((s) => s.address)
    const on = (i: number) => (i % 2 === 0 ? a : b) ?? ""
    const slot = "sl-free"
    expect((await admin(`${a}/admin/time-slots/${slot}`, "PATCH", { capacity: 5, waitlist: true })).status).toBe(200)
    const draftOf = async (i: number, tag: string) => {
      const created = await post(`${on(i)}${form}/submissions`, {
        idempotency_key: `wait-${tag}-${String(i).padStart(4, "0")}-0123456789abcdef`,
        values: { email: `w${tag}${i}@example.org` }
      })
      expect(created.status).toBe(201)
      return String(created.body["data"]["id"])
    }
    const drafts = await Promise.all(Array.from({ length: 60 }, (_, i) => draftOf(i, "a")))
    const answers = await Promise.all(drafts.map((id, i) => post(`${on(i + 1)}${form}/submissions/${id}/submit`, { values: { shifts: [slot] } })))
    expect(answers.map((r) => r.status)).toEqual(Array.from({ length: 60 }, () => 200))
    type Place = { readonly submission_id: string; readonly status: string; readonly joined: string }
    const places = () => rowsOf<Place>(databaseUrl,
      `SELECT submission_id::text AS submission_id, status, joined::text AS joined FROM slot_places p WHERE slot_id = '${slot}' ORDER BY p.joined`)
    const first = await places()
    expect(first.filter((p) => p.status === "confirmed").length).toBe(5)
    expect(first.filter((p) => p.status === "waitlisted").length).toBe(55)
    // The confirmed are the first five to join; the waitlist follows in a strict order (distinct ranks).
    expect(first.map((p) => p.status).slice(0, 8)).toEqual([...Array.from({ length: 5 }, () => "confirmed"), "waitlisted", "waitlisted", "waitlisted"])
    expect(new Set(first.map((p) => p.joined)).size).toBe(60)
    for (const address of [a, b]) {
      const listed = (await (await fetch(`${address}${form}/time-slots`)).json()) as { data: ReadonlyArray<Record<string, unknown>> }
      const free = listed.data.find((s) => s["id"] === slot)
      expect([free?.["remaining"], free?.["waitlist"], free?.["waitlisted"]]).toEqual([0, true, 55])
    }

    // 5 confirmed and 15 waiting places erased, racing 20 new submits, on both servers; an invariant query
    // watches every commit it can see.
    const erased = [...first.slice(0, 5), ...first.slice(10, 25)].map((p) => p.submission_id)
    const newcomers = await Promise.all(Array.from({ length: 20 }, (_, i) => draftOf(i, "b")))
    let running = true
    const seen: Array<number> = []
    const watch = (async () => {
      while (running) {
        const [row] = await rowsOf<{ n: number }>(databaseUrl,
          `SELECT count(*)::int AS n FROM slot_places WHERE slot_id = '${slot}' AND status = 'confirmed'`)
        seen.push(row?.n ?? -1)
      }
    })()
    const step = await Promise.all([
      ...erased.map((id, i) => admin(`${on(i)}/admin/submissions/${id}`, "DELETE")),
      ...newcomers.map((id, i) => post(`${on(i + 1)}${form}/submissions/${id}/submit`, { values: { shifts: [slot] } }))
    ])
    running = false
    await watch
    expect(step.map((r) => r.status)).toEqual([...erased.map(() => 204), ...newcomers.map(() => 200)])
    expect(seen.length).toBeGreaterThan(0)
    expect(seen.every((n) => n >= 0 && n <= 5)).toBe(true)

    const after = await places()
    // No place lost or doubled: 60 − 20 + 20, one each.
    expect(after.length).toBe(60)
    expect(new Set(after.map((p) => p.submission_id)).size).toBe(60)
    const confirmed = after.filter((p) => p.status === "confirmed")
    const waiting = after.filter((p) => p.status === "waitlisted")
    expect(confirmed.length).toBe(5)
    // Promotions in order of joining: every confirmed place joined before every waiting one.
    const lastConfirmed = Math.max(...confirmed.map((p) => Number(p.joined)))
    expect(waiting.every((p) => Number(p.joined) > lastConfirmed)).toBe(true)
    // The five promoted are the first five still waiting before the step (ranks 6–10), each with one event.
    expect(confirmed.map((p) => p.submission_id)).toEqual(first.slice(5, 10).map((p) => p.submission_id))
    const promoted = await rowsOf<{ submission_id: string }>(databaseUrl,
      `SELECT payload->>'submission_id' AS submission_id FROM outbox WHERE type = 'place.promoted' AND payload->>'slot_id' = '${slot}'`)
    expect(promoted.map((e) => e.submission_id).sort()).toEqual(first.slice(5, 10).map((p) => p.submission_id).sort())
    // Every newcomer waits, behind everyone who waited before.
    expect(waiting.slice(-20).map((p) => p.submission_id).sort()).toEqual([...newcomers].sort())
  }, 180_000)
  it("cancellations through the manage route on two servers: 20 places given up racing 20 submits never confirm above 5, " +
    "promote in order of joining, and lose or double no place", async () => {
    const [a, b] = servers.map((s) => s.address)
    const on = (i: number) => (i % 2 === 0 ? a : b) ?? ""
    const slot = "sl-gate"
    expect((await admin(`${a}/admin/time-slots/${slot}`, "PATCH", { capacity: 5, waitlist: true })).status).toBe(200)
    const draftOf = async (i: number, tag: string) => {
      const created = await post(`${on(i)}${form}/submissions`, {
        idempotency_key: `manage-${tag}-${String(i).padStart(4, "0")}-0123456789abcdef`,
        values: { email: `m${tag}${i}@example.org` }
      })
      expect(created.status).toBe(201)
      return String(created.body["data"]["id"])
    }
    const drafts = await Promise.all(Array.from({ length: 60 }, (_, i) => draftOf(i, "a")))
    const answers = await Promise.all(drafts.map((id, i) => post(`${on(i + 1)}${form}/submissions/${id}/submit`, { values: { shifts: [slot] } })))
    expect(answers.map((r) => r.status)).toEqual(Array.from({ length: 60 }, () => 200))
    const tokens = new Map(answers.map((r) => [String(r.body["data"]["id"]), String(r.body["data"]["manage_url"]).split("/m/")[1] ?? ""]))
    type Place = { readonly submission_id: string; readonly status: string; readonly joined: string }
    const places = () => rowsOf<Place>(databaseUrl,
      `SELECT submission_id::text AS submission_id, status, joined::text AS joined FROM slot_places p WHERE slot_id = '${slot}' ORDER BY p.joined`)
    const first = await places()
    expect(first.map((p) => p.status)).toEqual([...Array.from({ length: 5 }, () => "confirmed"), ...Array.from({ length: 55 }, () => "waitlisted")])
    expect(new Set(first.map((p) => p.joined)).size).toBe(60)

    // 5 confirmed and 15 waiting places given up by their volunteers, racing 20 new submits, on both servers.
    const leaving = [...first.slice(0, 5), ...first.slice(10, 25)].map((p) => p.submission_id)
    const newcomers = await Promise.all(Array.from({ length: 20 }, (_, i) => draftOf(i, "b")))
    let running = true
    const seen: Array<number> = []
    const watch = (async () => {
      while (running) {
        const [row] = await rowsOf<{ n: number }>(databaseUrl,
          `SELECT count(*)::int AS n FROM slot_places WHERE slot_id = '${slot}' AND status = 'confirmed'`)
        seen.push(row?.n ?? -1)
      }
    })()
    const step = await Promise.all([
      ...leaving.map(async (id, i) => {
        const response = await fetch(`${on(i)}/public/manage/${tokens.get(id) ?? ""}/places/${slot}`, { method: "DELETE" })
        return { status: response.status }
      }),
      ...newcomers.map((id, i) => post(`${on(i + 1)}${form}/submissions/${id}/submit`, { values: { shifts: [slot] } }))
    ])
    running = false
    await watch
    expect(step.map((r) => r.status)).toEqual([...leaving.map(() => 204), ...newcomers.map(() => 200)])
    expect(seen.length).toBeGreaterThan(0)
    expect(seen.every((n) => n >= 0 && n <= 5)).toBe(true)

    const after = await places()
    expect(after.length).toBe(60)
    expect(new Set(after.map((p) => p.submission_id)).size).toBe(60)
    expect(after.some((p) => leaving.includes(p.submission_id))).toBe(false)
    const confirmed = after.filter((p) => p.status === "confirmed")
    const waiting = after.filter((p) => p.status === "waitlisted")
    expect(confirmed.map((p) => p.submission_id)).toEqual(first.slice(5, 10).map((p) => p.submission_id))
    expect(waiting.every((p) => Number(p.joined) > Math.max(...confirmed.map((c) => Number(c.joined))))).toBe(true)
    expect(waiting.slice(-20).map((p) => p.submission_id).sort()).toEqual([...newcomers].sort())
    const events = await rowsOf<{ type: string; submission_id: string }>(databaseUrl,
      `SELECT type, payload->>'submission_id' AS submission_id FROM outbox
       WHERE type IN ('place.cancelled', 'place.promoted') AND payload->>'slot_id' = '${slot}' ORDER BY seq`)
    expect(events.filter((e) => e.type === "place.cancelled").map((e) => e.submission_id).sort()).toEqual([...leaving].sort())
    expect(events.filter((e) => e.type === "place.promoted").map((e) => e.submission_id).sort())
      .toEqual(first.slice(5, 10).map((p) => p.submission_id).sort())
    // Each promotion follows the cancellation that freed its place.
    const promotedAt = events.findIndex((e) => e.type === "place.promoted")
    const cancelledAt = events.findIndex((e) => e.type === "place.cancelled" && first.slice(0, 5).some((p) => p.submission_id === e.submission_id))
    expect(cancelledAt).toBeLessThan(promotedAt)
  }, 180_000)
})
