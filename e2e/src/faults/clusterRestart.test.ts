/**
 * (b) Our own PostgreSQL cluster is stopped (pg_ctl stop -m fast, then -m immediate) and started again
 * mid-load. While it is gone every answer is 503 UNAVAILABLE within the connect and statement
 * timeouts (never a 500, never a hang); when it is back the same server process serves again, and
 * every promise holds in SQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Pool } from "undici"
import { makePool, sendJson, sleep } from "../support/http.js"
import { type Cluster, clusterUnavailable, createCluster } from "../support/pgCluster.js"
import { freePort, type ServerProcess, serverCommand, startServerProcess } from "../support/serverProcess.js"
import { connectSql, createDatabase, databaseUrl, type Sql } from "../support/sql.js"
import { type LoadStats, newStats, runLoad } from "./flows.js"
import { expectDelivered, expectPromisesKept, finishAndCheck, waitForRecovery } from "./harness.js"

const unavailable = clusterUnavailable()
if (unavailable !== undefined) console.log(`faults (b): skipped: our own PostgreSQL cluster cannot run here (${unavailable})`)
const describeIf = unavailable === undefined ? describe : describe.skip

let cluster: Cluster | undefined
let server: ServerProcess | undefined
let pool: Pool | undefined
let sql: Sql | undefined

/** While the database is down: what the server answers, and how fast. */
const probeOutage = async (pool: Pool, ms: number) => {
  const answers: Record<string, number> = {}
  let slowest = 0
  const until = Date.now() + ms
  while (Date.now() < until) {
    for (const path of ["/health/ready", "/public/forms/e2e-load-token-0000000001"]) {
      const answer = await sendJson(pool, "GET", path, undefined, 20_000)
      slowest = Math.max(slowest, answer.ms)
      const label = `${path} ${answer._tag === "Answer" ? answer.status : "transport"}`
      answers[label] = (answers[label] ?? 0) + 1
    }
    await sleep(200)
  }
  return { answers, slowest }
}

const outage = async (stats: LoadStats, mode: "fast" | "immediate") => {
  if (cluster === undefined || pool === undefined) throw new Error("not started")
  const before = stats.statuses["create 503"] ?? 0
  await cluster.stop(mode)
  const down = await probeOutage(pool, 5_000)
  await cluster.start()
  const recoveredMs = await waitForRecovery(pool)
  return { down, recoveredMs, creates503: (stats.statuses["create 503"] ?? 0) - before }
}

describeIf("our own PostgreSQL stopped and started mid-load", () => {
  beforeAll(async () => {
    cluster = await createCluster()
    const url = await createDatabase(cluster.adminUrl, "forms_e2e_cluster")
    sql = connectSql(databaseUrl(cluster.adminUrl, "forms_e2e_cluster"))
    server = await startServerProcess({ databaseUrl: url, port: await freePort() })
    pool = makePool(server.origin, 16)
    console.log(`faults (b): ${serverCommand().label} on a cluster of our own, port ${cluster.port}`)
  }, 180_000)

  afterAll(async () => {
    await pool?.close()
    await server?.stop()
    await sql?.close()
    await cluster?.destroy()
  }, 120_000)

  it("answers 503 within the timeouts while it is gone, recovers without a restart, keeps every promise", async () => {
    if (server === undefined || pool === undefined || sql === undefined) throw new Error("not started")
    const pid = server.pid
    const stats = newStats()
    let stop = false
    const load = runLoad(pool, stats, 8, () => stop)
    await sleep(3_000)
    const fast = await outage(stats, "fast")
    await sleep(3_000)
    const immediate = await outage(stats, "immediate")
    await sleep(3_000)
    stop = true
    await load
    for (const { down } of [fast, immediate]) {
      expect(Object.keys(down.answers).every((label) => label.endsWith(" 503")), JSON.stringify(down.answers)).toBe(true)
      expect(down.slowest).toBeLessThan(15_000)
    }
    expect(server.child.exitCode).toBeNull()
    expect(server.pid).toBe(pid)
    expectPromisesKept(stats)
    const summary = await finishAndCheck(pool, sql, stats)
    for (const [mode, o] of [["fast", fast], ["immediate", immediate]] as const) {
      console.log(`faults (b): stop -m ${mode}: while down ${JSON.stringify(o.down.answers)}, slowest ${Math.round(o.down.slowest)} ms; ` +
        `recovered ${o.recoveredMs} ms after the start`)
    }
    console.log(`faults (b): ${summary}`)
    await expectDelivered(sql, "faults (b)")
  }, 480_000)
})
