/**
 * SQL round trips per route: a server is started on its database through the counting proxy, one
 * flow warms it up (prepared statements, caches), then a second flow is counted step by step. What
 * arrives in the half second after a step (outbox dispatcher, pool checks) is counted apart.
 */
import { runSteps } from "./driver.js"
import { steps, type Step } from "./flow.js"
import { diffCounts, type ProtocolCounts, startCountingProxy } from "./pgProxy.js"
import { type RunningServer, type ServerKind, startServer } from "./servers.js"
import { truncateWritten } from "./database.js"
import type { AddressFamily, Traffic } from "./visitors.js"

export interface StepCount {
  readonly status: number
  /** Between the previous step's end (after its quiet period) and this step's answer. */
  readonly route: ProtocolCounts
  /** In the 500 ms after this step's answer. */
  readonly after: ProtocolCounts
}
export type RoundTripReport = Partial<Record<Step, StepCount>>

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export const countRoundTrips = async (
  kind: Exclude<ServerKind, "embedded">,
  databaseUrl: string,
  logLevel: string,
  logFile: string,
  running: Set<RunningServer>,
  traffic: Traffic = "visitors",
  family: AddressFamily = "ipv4"
): Promise<RoundTripReport> => {
  const upstream = new URL(databaseUrl)
  const proxy = await startCountingProxy(upstream.hostname, Number(upstream.port || "5432"))
  const viaProxy = new URL(databaseUrl)
  viaProxy.hostname = "127.0.0.1"
  viaProxy.port = String(proxy.port)
  const server = await startServer({ kind, databaseUrl: viaProxy.toString(), logLevel, logFile, traffic })
  const visitors = traffic === "visitors" ? { family, first: 0 } : undefined
  running.add(server)
  const report: RoundTripReport = {}
  try {
    await runSteps(server.baseUrl, 1, async () => {}, visitors)
    await sleep(1000)
    let mark = proxy.snapshot()
    await runSteps(server.baseUrl, 1, async (step, status) => {
      const answered = proxy.snapshot()
      await sleep(500)
      const quiet = proxy.snapshot()
      report[step] = { status, route: diffCounts(answered, mark), after: diffCounts(quiet, answered) }
      mark = quiet
    }, visitors === undefined ? undefined : { ...visitors, first: 1 })
  } finally {
    await server.stop()
    running.delete(server)
    await proxy.close()
  }
  await truncateWritten(databaseUrl)
  return report
}

/** Round trips of one flow's steps, summed per route kind (the three saves together). */
export const roundTripsPerFlow = (report: RoundTripReport): number =>
  steps.reduce((n, step) => n + (report[step]?.route.roundTrips ?? 0), 0)
