/**
 * Webhook delivery across process deaths and processes: a server SIGKILLed during a delivery delivers after
 * its restart (the same webhook-id); two servers on one PostgreSQL deliver 200 events, each at least once and
 * never twice at the same time; and there one organisation's dead receivers do not delay another's messages.
 */
import { afterAll, describe, expect, it } from "vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { type ChildProcess, spawn } from "node:child_process"
import { createSocket } from "node:dgram"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer, type Server } from "node:http"
import { type AddressInfo, createServer as createTcpServer, type Socket } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { Webhook } from "standardwebhooks"
import { PgLive } from "@forms/adapters-sql"
import { testDatabaseUrl } from "./harness.js"

const serverDir = fileURLToPath(new URL("..", import.meta.url))
const contactForm = "/public/forms/test-contact-token-0001"
const apiKey = `fok_${"hooksProcessKey".repeat(3)}`
const apiKeyB = `fok_${"hooksProcessOrgU".repeat(3)}`
const started: Array<ChildProcess> = []
afterAll(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
})

// One node process (no tsx wrapper), so that SIGKILL ends the very server.
const startServer = (env: Record<string, string>) => {
  const child = spawn(process.execPath, ["--conditions=@forms/source", "--import", "tsx", "test/webhookServer.ts"], {
    cwd: serverDir,
    env: {
      ...process.env, INIT_CWD: serverDir, HOOKS_API_KEY: apiKey, HOOKS_API_KEY_B: apiKeyB, WEBHOOK_TIMEOUT_MS: "20000",
      WEBHOOK_RETRY_SCHEDULE: "1,1,1", ...env
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  started.push(child)
  let output = ""
  child.stdout?.on("data", (chunk) => (output += String(chunk)))
  child.stderr?.on("data", (chunk) => (output += String(chunk)))
  const lines = () => output.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as Record<string, unknown>)
  const ready = async () => {
    const deadline = Date.now() + 90_000
    while (Date.now() < deadline) {
      if (lines().some((l) => l["message"] === "webhook key ready")) {
        const listening = lines().find((l) => l["message"] === "listening")
        return String((listening?.["annotations"] as Record<string, string>)["address"])
      }
      if (child.exitCode !== null || child.signalCode !== null) break
      await new Promise((r) => setTimeout(r, 100))
    }
    throw new Error(`not ready; output:\n${output}`)
  }
  const exited = new Promise<unknown>((resolve) => child.once("exit", (code, signal) => resolve(signal ?? code)))
  return { child, ready, exited }
}

interface Hit { readonly id: string; readonly headers: Record<string, string>; readonly body: string }

/** A receiver: `answer` decides each request (null: hang); it records hits and overlapping deliveries of one id. */
const receiver = async (answer: (hit: Hit) => Promise<number | null>) => {
  const hits: Array<Hit> = []
  const inFlight = new Set<string>()
  const overlaps: Array<string> = []
  const server: Server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const headers: Record<string, string> = {}
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers[k] = v
      const hit = { id: headers["webhook-id"] ?? "", headers, body: Buffer.concat(chunks).toString("utf8") }
      hits.push(hit)
      if (inFlight.has(hit.id)) overlaps.push(hit.id)
      inFlight.add(hit.id)
      void answer(hit).then((status) => {
        if (status === null) return
        inFlight.delete(hit.id)
        res.writeHead(status)
        res.end()
      })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
  const close = () => new Promise<void>((resolve) => {
    server.closeAllConnections()
    server.close(() => resolve())
  })
  return { hits, overlaps, url, close }
}

/** A name server that never answers (UDP on loopback): a lookup through it hangs. It counts the queries. */
const silentNameServer = async () => {
  let queries = 0
  const socket = createSocket("udp4")
  socket.on("message", () => queries++)
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", () => resolve()))
  return { address: `127.0.0.1:${socket.address().port}`, queries: () => queries, close: () => socket.close() }
}

/** A TCP server that accepts every connection and never answers; it counts the connections open at once. */
const silentReceiver = async () => {
  const open = new Set<Socket>()
  let peak = 0
  const server = createTcpServer((socket) => {
    open.add(socket)
    peak = Math.max(peak, open.size)
    socket.on("close", () => open.delete(socket))
    socket.on("error", () => open.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
  const close = () => new Promise<void>((resolve) => {
    for (const socket of open) socket.destroy()
    server.close(() => resolve())
  })
  return { url, open: () => open.size, peak: () => peak, close }
}

const admin = async (base: string, method: string, path: string, body?: unknown, key = apiKey) => {
  const res = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return { status: res.status, body: (await res.json().catch(() => null)) as { data: Record<string, unknown> } | null }
}

const submit = async (base: string, n: number) => {
  const created = await fetch(`${base}${contactForm}/submissions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ idempotency_key: `proc-${Date.now()}-${n}-0123456789abcdef` })
  })
  const id = String(((await created.json()) as { data: { id: string } }).data.id)
  const res = await fetch(`${base}${contactForm}/submissions/${id}/submit`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ values: { email: `p${n}@example.org` } })
  })
  expect(res.status).toBe(200)
}

const until = async (done: () => boolean, timeoutMs: number, what: string) => {
  const deadline = Date.now() + timeoutMs
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

describe("webhook delivery across processes", () => {
  it("a server SIGKILLed during a delivery delivers it after its restart, with the same webhook-id", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "forms-hooks-"))
    let first = true
    const rx = await receiver(async () => {
      if (first) {
        first = false
        return null
      }
      return 200
    })
    try {
      // Short attempts, so that the killed attempt's lease (timeout + 1 s) has run out soon after the restart.
      const env = { DATA_DIR: dataDir, WEBHOOK_TIMEOUT_MS: "3000" }
      const one = startServer(env)
      const base = await one.ready()
      const created = await admin(base, "POST", "/admin/webhooks", { url: rx.url, event_types: ["submission.submitted"] })
      expect(created.status).toBe(201)
      const secret = String(created.body?.data["secret"])
      const hook = String(created.body?.data["id"])
      await submit(base, 1)
      await until(() => rx.hits.length === 1, 30_000, "the first attempt")
      one.child.kill("SIGKILL")
      await one.exited
      const two = startServer(env)
      const again = await two.ready()
      await until(() => rx.hits.length >= 2, 60_000, "the delivery after the restart")
      expect(rx.hits[1]?.id).toBe(rx.hits[0]?.id)
      new Webhook(secret).verify(rx.hits[1]?.body ?? "", rx.hits[1]?.headers ?? {})
      const list = await admin(again, "GET", `/admin/webhooks/${hook}/deliveries`)
      const delivery = (list.body as unknown as { data: Array<{ status: string; attempts: Array<{ error: string | null; status_code: number | null }> }> }).data[0]
      expect(delivery?.status).toBe("delivered")
      expect(delivery?.attempts.map((a) => a.status_code)).toEqual([null, 200])
      expect(delivery?.attempts[0]?.error).toMatch(/^interrupted/)
      two.child.kill("SIGTERM")
      await two.exited
    } finally {
      await rx.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, 240_000)

  const url = testDatabaseUrl
  it.skipIf(url === undefined)("two servers on one PostgreSQL deliver 200 events, each at least once, none twice at the same time", async () => {
    if (url === undefined) return
    const schema = `hooks_${Date.now()}_${Math.floor(Math.random() * 1e6)}`
    const onPostgres = (sql: string) =>
      Effect.runPromise(Effect.flatMap(SqlClient.SqlClient, (c) => c.unsafe(sql)).pipe(Effect.provide(PgLive.layer({ url })), Effect.scoped))
    await onPostgres(`CREATE SCHEMA ${schema}`)
    const rx = await receiver(() => new Promise((resolve) => setTimeout(() => resolve(200), 20)))
    try {
      const env = { HOOKS_DATABASE_URL: url, HOOKS_SCHEMA: schema }
      // One first (it migrates and loads the fixture), then the second.
      const a = startServer({ ...env, HOOKS_NAME: "a" })
      const baseA = await a.ready()
      const b = startServer({ ...env, HOOKS_NAME: "b" })
      const baseB = await b.ready()
      const created = await admin(baseA, "POST", "/admin/webhooks", { url: rx.url, event_types: ["*"] })
      expect(created.status).toBe(201)
      const secret = String(created.body?.data["secret"])
      for (let batch = 0; batch < 20; batch++) {
        await Promise.all(Array.from({ length: 10 }, (_, i) => submit(i % 2 === 0 ? baseA : baseB, batch * 10 + i)))
      }
      await until(() => new Set(rx.hits.map((h) => h.id)).size >= 200, 120_000, "200 distinct deliveries")
      await new Promise((r) => setTimeout(r, 1000))
      expect(rx.overlaps).toEqual([])
      expect(new Set(rx.hits.map((h) => h.id)).size).toBe(200)
      // Duplicates only after a lost acknowledgement: none here, the receiver answers every request.
      expect(rx.hits.length).toBe(200)
      // Both processes delivered (each claims what is due when it polls).
      const senders = new Set(rx.hits.map((h) => h.headers["x-test-process"]))
      expect([...senders].sort()).toEqual(["a", "b"])
      for (const hit of rx.hits.slice(0, 20)) new Webhook(secret).verify(hit.body, hit.headers)
      a.child.kill("SIGTERM")
      b.child.kill("SIGTERM")
      await Promise.all([a.exited, b.exited])
    } finally {
      await rx.close()
      await onPostgres(`DROP SCHEMA ${schema} CASCADE`).catch(() => undefined)
    }
  }, 300_000)

  it.skipIf(url === undefined)("two servers on one PostgreSQL: one organisation's dead receivers do not delay another's test message", async () => {
    if (url === undefined) return
    const schema = `hooks_${Date.now()}_${Math.floor(Math.random() * 1e6)}`
    const onPostgres = (sql: string) =>
      Effect.runPromise(Effect.flatMap(SqlClient.SqlClient, (c) => c.unsafe(sql)).pipe(Effect.provide(PgLive.layer({ url })), Effect.scoped))
    await onPostgres(`CREATE SCHEMA ${schema}`)
    const live = await receiver(async () => 200)
    const silent = await silentReceiver()
    const names = await silentNameServer()
    // Attempts of 30 s: a message held behind the dead receivers would wait that long.
    const timeoutMs = 30_000
    try {
      const env = {
        HOOKS_DATABASE_URL: url, HOOKS_SCHEMA: schema, WEBHOOK_TIMEOUT_MS: String(timeoutMs), HOOKS_NAME_SERVER: names.address
      }
      const a = startServer({ ...env, HOOKS_NAME: "a" })
      const baseA = await a.ready()
      const b = startServer({ ...env, HOOKS_NAME: "b" })
      const baseB = await b.ready()
      // Organisation A (org-t): a receiver that answers at once.
      const hookA = await admin(baseA, "POST", "/admin/webhooks", { url: live.url, event_types: ["*"] })
      expect(hookA.status).toBe(201)
      const testOfA = async () => {
        const started = Date.now()
        const queued = await admin(baseB, "POST", `/admin/webhooks/${String(hookA.body?.data["id"])}/test`)
        expect(queued.status).toBe(202)
        const id = String(queued.body?.data["event_id"])
        await until(() => live.hits.some((h) => h.id === id), timeoutMs, "organisation A's test message")
        return Date.now() - started
      }
      const before = await testOfA()

      // Organisation B (org-u): 40 test messages to a receiver that never answers, 40 to a host whose name server
      // never answers.
      const dead = await admin(baseA, "POST", "/admin/webhooks", { url: silent.url, event_types: ["*"] }, apiKeyB)
      const hanging = await admin(baseA, "POST", "/admin/webhooks", { url: "http://hang.hooks.test/hook", event_types: ["*"] }, apiKeyB)
      expect([dead.status, hanging.status]).toEqual([201, 201])
      for (const hook of [dead, hanging]) {
        for (let i = 0; i < 40; i++) {
          const queued = await admin(i % 2 === 0 ? baseA : baseB, "POST", `/admin/webhooks/${String(hook.body?.data["id"])}/test`, undefined, apiKeyB)
          expect(queued.status).toBe(202)
        }
      }
      // B's attempts hold their workers: as many connections open to the dead receiver as its endpoint's cap.
      await until(() => silent.open() >= 4 && names.queries() > 0, timeoutMs, "organisation B's attempts in flight")
      const after = await testOfA()
      console.info(`organisation A's test message: ${before} ms alone, ${after} ms behind organisation B's dead receivers`)
      // Far below the 30 s an attempt to a dead receiver waits: A's message was not queued behind them.
      expect(after).toBeLessThan(5_000)
      // The endpoint's cap holds over both processes.
      expect(silent.peak()).toBe(4)
      a.child.kill("SIGTERM")
      b.child.kill("SIGTERM")
      await Promise.all([a.exited, b.exited])
    } finally {
      await live.close()
      await silent.close()
      names.close()
      await onPostgres(`DROP SCHEMA ${schema} CASCADE`).catch(() => undefined)
    }
  }, 300_000)
})
