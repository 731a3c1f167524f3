/**
 * (a) The database goes away mid-load on the shared server: our server's sessions are ended with
 * pg_terminate_backend, five times. Answers are 503 UNAVAILABLE or success, never 500, each within
 * 15 s; the server recovers by itself; nothing acknowledged is lost, nothing is half-written, and a
 * client retrying with its idempotency key submits exactly once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Pool } from "undici"
import { makePool, sleep } from "../support/http.js"
import { testDatabaseUrl } from "../support/paths.js"
import { freePort, type ServerProcess, serverCommand, startServerProcess } from "../support/serverProcess.js"
import { connectSql, createDatabase, dropDatabase, type Sql, terminateBackends, uniqueDatabaseName } from "../support/sql.js"
import { newStats, runLoad } from "./flows.js"
import { expectDelivered, expectPromisesKept, finishAndCheck, waitForRecovery } from "./harness.js"

const name = uniqueDatabaseName("terminate")
let server: ServerProcess | undefined
let pool: Pool | undefined
let admin: Sql | undefined
let sql: Sql | undefined

const describeIf = testDatabaseUrl === undefined ? describe.skip : describe
if (testDatabaseUrl === undefined) {
  console.log("faults (a): skipped: set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/forms_dev) to end our server's sessions on a shared PostgreSQL")
}

describeIf("the database goes away mid-load (pg_terminate_backend on the shared server)", () => {
  beforeAll(async () => {
    if (testDatabaseUrl === undefined) return
    const url = await createDatabase(testDatabaseUrl, name)
    admin = connectSql(testDatabaseUrl)
    sql = connectSql(url)
    server = await startServerProcess({ databaseUrl: url, port: await freePort() })
    pool = makePool(server.origin, 16)
    console.log(`faults (a): ${serverCommand().label} on database ${name}`)
  }, 180_000)

  afterAll(async () => {
    await pool?.close()
    await server?.stop()
    await sql?.close()
    await admin?.close()
    if (testDatabaseUrl !== undefined) await dropDatabase(testDatabaseUrl, name)
  }, 60_000)

  it("answers 503 or success, never 500, recovers without a restart, and keeps every promise", async () => {
    if (server === undefined || pool === undefined || admin === undefined || sql === undefined) throw new Error("not started")
    const stats = newStats()
    let stop = false
    const load = runLoad(pool, stats, 8, () => stop)
    const ended: Array<number> = []
    await sleep(3_000)
    for (let i = 0; i < 5; i++) {
      ended.push(await terminateBackends(admin, name))
      await sleep(2_000)
    }
    await sleep(1_000)
    stop = true
    await load
    const recoveredMs = await waitForRecovery(pool)
    expect(server.child.exitCode).toBeNull()
    expectPromisesKept(stats)
    const summary = await finishAndCheck(pool, sql, stats)
    console.log(`faults (a): sessions ended ${ended.join(", ")}; recovered ${recoveredMs} ms after the load; ${summary}`)
    expect(ended.reduce((a, b) => a + b, 0)).toBeGreaterThan(0)
    expect(stats.flows.filter((f) => f.acked.has("submit")).length).toBeGreaterThan(0)
    await expectDelivered(sql, "faults (a)")
  }, 420_000)
})
