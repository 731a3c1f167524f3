/**
 * A quick measurement (not a test): public flows (create + submit) per second against one server on
 * PostgreSQL (TEST_DATABASE_URL, a schema of its own), with no webhook endpoint and with one subscribed
 * endpoint on a loopback receiver, alternated. Run: `tsx --conditions=@forms/source test/webhookFlowLoad.ts`.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { spawn } from "node:child_process"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { fileURLToPath } from "node:url"
import { PgLive } from "@forms/adapters-sql"

const url = process.env["TEST_DATABASE_URL"] ?? ""
const flows = Number(process.env["FLOWS"] ?? 300)
const concurrency = Number(process.env["CONCURRENCY"] ?? 16)
const apiKey = `fok_${"hooksProcessKey".repeat(3)}`
const serverDir = fileURLToPath(new URL("..", import.meta.url))
const onPostgres = (sql: string) =>
  Effect.runPromise(Effect.flatMap(SqlClient.SqlClient, (c) => c.unsafe(sql)).pipe(Effect.provide(PgLive.layer({ url })), Effect.scoped))

const main = async () => {
  const schema = `hooks_load_${Date.now()}`
  await onPostgres(`CREATE SCHEMA ${schema}`)
  // Counted from the last phase with an endpoint on (deleting the endpoint drops its deliveries).
  let received = 0
  const rx = createServer((req, res) => {
    req.resume()
    req.on("end", () => {
      received++
      res.writeHead(204).end()
    })
  })
  await new Promise<void>((r) => rx.listen(0, "127.0.0.1", () => r()))
  const child = spawn(process.execPath, ["--conditions=@forms/source", "--import", "tsx", "test/webhookServer.ts"], {
    cwd: serverDir,
    env: { ...process.env, INIT_CWD: serverDir, HOOKS_API_KEY: apiKey, HOOKS_DATABASE_URL: url, HOOKS_SCHEMA: schema, LOG_LEVEL: "warn" },
    stdio: ["ignore", "pipe", "inherit"]
  })
  let out = ""
  child.stdout?.on("data", (c) => (out += String(c)))
  while (!out.includes("webhook key ready")) await new Promise((r) => setTimeout(r, 100))
  const base = String(JSON.parse(out.split("\n").find((l) => l.includes("\"listening\"")) ?? "{}").annotations.address)
  let n = 0
  const flow = async () => {
    const i = n++
    const created = await fetch(`${base}/public/forms/test-contact-token-0001/submissions`, {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ idempotency_key: `load-${Date.now()}-${i}-0123456789abcdef` })
    })
    const id = ((await created.json()) as { data: { id: string } }).data.id
    const submitted = await fetch(`${base}/public/forms/test-contact-token-0001/submissions/${id}/submit`, {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ values: { email: `l${i}@example.org` } })
    })
    if (submitted.status !== 200) throw new Error(`submit ${submitted.status}`)
  }
  const run = async (count: number) => {
    const started = Date.now()
    let left = count
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (left-- > 0) await flow()
    }))
    return count / ((Date.now() - started) / 1000)
  }
  await run(50)
  const results: Array<[string, number]> = []
  let endpoint: string | undefined
  for (const phase of ["none", "one", "none", "one"]) {
    if (phase === "one" && endpoint === undefined) {
      const res = await fetch(`${base}/admin/webhooks`, {
        method: "POST",
        headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({ url: `http://127.0.0.1:${(rx.address() as AddressInfo).port}/hook`, event_types: ["*"] })
      })
      endpoint = String(((await res.json()) as { data: { id: string } }).data.id)
    }
    if (phase === "none" && endpoint !== undefined) {
      await fetch(`${base}/admin/webhooks/${endpoint}`, { method: "DELETE", headers: { authorization: `Bearer ${apiKey}` } })
      endpoint = undefined
    }
    await new Promise((r) => setTimeout(r, 2000))
    received = 0
    results.push([phase, await run(flows)])
  }
  // Deliveries are recorded when the §6 dispatcher has handled an event: the drain time is its backlog's.
  const drainStart = Date.now()
  const deadline = drainStart + 240_000
  while (received < flows && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200))
  console.log(JSON.stringify({ flows, concurrency, flows_per_second: results, received, drained_after_ms: Date.now() - drainStart }))
  child.kill("SIGTERM")
  rx.close()
  await new Promise((r) => setTimeout(r, 2000))
  await onPostgres(`DROP SCHEMA ${schema} CASCADE`)
}

void main()
