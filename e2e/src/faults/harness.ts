/** Shared steps of the fault tests: the server under load, waiting for recovery, finishing flows, the SQL checks. */
import { expect } from "vitest"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import type { Pool } from "undici"
import { runConcurrently, sendJson, sleep } from "../support/http.js"
import { repoRoot } from "../support/paths.js"
import type { Sql } from "../support/sql.js"
import { flowViolations, invariantViolations, noViolations } from "./checks.js"
import { finishFlow, type LoadStats } from "./flows.js"

/** Waits until /health/ready and a fresh create answer 2xx: the server recovered without a restart. */
export const waitForRecovery = async (pool: Pool, deadlineMs = 60_000): Promise<number> => {
  const started = Date.now()
  while (Date.now() - started < deadlineMs) {
    const ready = await sendJson(pool, "GET", "/health/ready", undefined, 5_000)
    if (ready._tag === "Answer" && ready.status === 200) {
      const form = await sendJson(pool, "GET", "/public/forms/e2e-load-token-0000000001", undefined, 5_000)
      if (form._tag === "Answer" && form.status === 200) return Date.now() - started
    }
    await sleep(250)
  }
  throw new Error(`the server did not recover within ${deadlineMs} ms`)
}

/** Finishes every flow cut short, then checks every promise in SQL; returns a summary line. */
export const finishAndCheck = async (pool: Pool, sql: Sql, stats: LoadStats): Promise<string> => {
  const cut = stats.flows.filter((f) => f.unsure.size > 0)
  const retryProblems: Array<string> = []
  await runConcurrently(cut.length, 8, async (i) => {
    const flow = cut[i]
    const problem = flow === undefined ? undefined : await finishFlow(pool, flow)
    if (problem !== undefined) retryProblems.push(`flow ${flow?.key ?? "?"}: ${problem}`)
  })
  expect(retryProblems).toEqual([])
  expect(noViolations(await invariantViolations(sql))).toEqual({})
  expect(await flowViolations(sql, stats.flows)).toEqual([])
  const submittedAcked = stats.flows.filter((f) => f.acked.has("submit")).length
  const committedBefore = cut.filter((f) => f.retried === 409).length
  return `${stats.flows.length} flows, ${submittedAcked} submits acknowledged under load, ${cut.length} cut short and finished ` +
    `by retrying with the same key (${committedBefore} of them had committed before their 503/cut: 409 on the retry); ` +
    `slowest answer ${Math.round(stats.maxMs)} ms; answers ${JSON.stringify(stats.statuses)}`
}

export const expectPromisesKept = (stats: LoadStats) => {
  expect(stats.problems.slice(0, 20)).toEqual([])
  expect(stats.timeouts).toBe(0)
  expect(stats.maxMs).toBeLessThan(15_000)
}

/** The server wires an outbox dispatcher (the events work); until then the delivery check is skipped. */
export const serverRunsDispatcher = (): boolean => {
  const dir = join(repoRoot, "apps/server/src")
  return readdirSync(dir).filter((f) => f.endsWith(".ts")).some((f) => /Dispatcher/.test(readFileSync(join(dir, f), "utf8")))
}

/** Waits until every outbox event is delivered (none pending, none dead); returns the time it took. */
export const waitForDelivery = async (sql: Sql, deadlineMs: number): Promise<{ ms: number; pending: number; dead: number }> => {
  const started = Date.now()
  for (;;) {
    const [row] = await sql.query<{ pending: number; dead: number }>(
      `SELECT count(*) FILTER (WHERE delivered_at IS NULL AND dead_at IS NULL)::int AS pending,
              count(*) FILTER (WHERE dead_at IS NOT NULL)::int AS dead FROM outbox`)
    const pending = row?.pending ?? -1
    const dead = row?.dead ?? -1
    if (pending === 0 || Date.now() - started > deadlineMs) return { ms: Date.now() - started, pending, dead }
    await sleep(500)
  }
}

/** Once the server runs the dispatcher: every event delivered within `deadlineMs` (a killed or cut-off claim waits out its 60 s lease). */
export const expectDelivered = async (sql: Sql, label: string, deadlineMs = 150_000): Promise<void> => {
  if (!serverRunsDispatcher()) {
    console.log(`${label}: delivery not checked: the server does not run the outbox dispatcher yet`)
    return
  }
  const delivery = await waitForDelivery(sql, deadlineMs)
  console.log(`${label}: outbox: ${delivery.pending} pending, ${delivery.dead} dead, ${delivery.ms} ms after the load`)
  expect(delivery.pending).toBe(0)
  expect(delivery.dead).toBe(0)
}
