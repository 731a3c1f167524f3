/**
 * (d) Requests that arrive while the server starts: refused before the port opens, then answered (503
 * UNAVAILABLE until the application's handler is attached, then normally). None is accepted and left open:
 * Node drops a request that arrives with no request listener, and a client would wait for its own time-out
 * (a restart under load showed it as creates that hung for 20 s).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { request } from "node:http"
import { type FaultDatabase, faultDatabaseUnavailable, makeFaultDatabase } from "../support/faultDatabase.js"
import { sleep } from "../support/http.js"
import { freePort, type ServerProcess, startServerProcess } from "../support/serverProcess.js"

const unavailable = faultDatabaseUnavailable()
if (unavailable !== undefined) console.log(`faults (d): skipped: ${unavailable}`)
const describeIf = unavailable === undefined ? describe : describe.skip

/** Far above any answer seen while starting (about 2 s on a busy machine); a dropped request never answers. */
const hangMs = 10_000

type Probe = { readonly sentMs: number; readonly outcome: string }

const probe = (port: number, startedAt: number): Promise<Probe> =>
  new Promise((resolve) => {
    const sentMs = Date.now() - startedAt
    const done = (outcome: string) => resolve({ sentMs, outcome })
    const req = request({ host: "127.0.0.1", port, path: "/health/live", agent: false, timeout: hangMs }, (res) => {
      let text = ""
      res.setEncoding("utf8")
      res.on("data", (chunk: string) => (text += chunk))
      res.on("end", () => done(res.statusCode === 503 ? `503 ${JSON.parse(text).error.code}` : String(res.statusCode)))
    })
    req.on("timeout", () => {
      req.destroy()
      done("no answer")
    })
    req.on("error", (error: NodeJS.ErrnoException) => done(error.code === "ECONNREFUSED" ? "refused" : `error ${error.code}`))
    req.end()
  })

let database: FaultDatabase | undefined
let server: ServerProcess | undefined

describeIf("requests while the server starts", () => {
  beforeAll(async () => {
    database = await makeFaultDatabase("startup")
  }, 180_000)

  afterAll(async () => {
    await server?.stop()
    await database?.release()
  }, 120_000)

  it("are refused or answered, never left open", async () => {
    if (database === undefined) throw new Error("not started")
    const port = await freePort()
    const startedAt = Date.now()
    let started = false
    const starting = startServerProcess({ databaseUrl: database.url, port }).then((s) => {
      server = s
      started = true
    })
    const probes: Array<Probe> = []
    while (!started || probes.at(-1)?.outcome !== "200") {
      probes.push(await probe(port, startedAt))
      await sleep(10)
    }
    await starting
    const outcomes = new Set(probes.map((p) => p.outcome))
    console.log(`faults (d): ${probes.length} probes while starting: ${[...outcomes].join(", ")}`)
    expect(probes.filter((p) => !["refused", "503 UNAVAILABLE", "200"].includes(p.outcome))).toEqual([])
  }, 240_000)
})
