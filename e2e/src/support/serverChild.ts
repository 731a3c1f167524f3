/**
 * The in-process test server (`inProcessServer.ts`: Server.layer, offline webhooks, PGlite or a database of
 * TEST_DATABASE_URL's server) started in a child process of its own. The test's process generates and checks the
 * requests; the child's event loop serves them alone, and the child measures it (perf_hooks
 * `monitorEventLoopDelay`) and reports it over the IPC channel, with its Object.prototype and SQL on its database.
 */
import { type ChildProcess, fork } from "node:child_process"
import { fileURLToPath } from "node:url"
import type { InProcessServer } from "./inProcessServer.js"
import type { ChildReply, ChildRequest, ChildStart, PrototypeReport } from "./serverChildMessages.js"
import { e2eDir } from "./paths.js"
import type { LagReport } from "./timing.js"

export interface ServerChild extends InProcessServer {
  readonly pid: number
  /** Starts measuring the child's event-loop delay. */
  readonly lagStart: () => Promise<void>
  /** The child's event-loop delay since `lagStart` (stops measuring; later calls answer the same report). */
  readonly lagStop: () => Promise<LagReport>
  readonly prototype: () => Promise<PrototypeReport>
}

const childMain = fileURLToPath(new URL("./serverChildMain.ts", import.meta.url))

type Pending = { readonly resolve: (reply: ChildReply) => void; readonly reject: (error: Error) => void }

/** Starts the child and waits for its server to listen (migrations and the fixture run first). */
export const startServerChild = async (
  env: Record<string, string>,
  databaseUrl?: string,
  readyTimeoutMs = 120_000
): Promise<ServerChild> => {
  const child: ChildProcess = fork(childMain, [], {
    cwd: e2eDir,
    execArgv: ["--conditions=@forms/source", "--import", "tsx"],
    serialization: "advanced",
    stdio: ["ignore", "inherit", "inherit", "ipc"]
  })
  const pending = new Map<number, Pending>()
  let nextId = 1
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  const gone = (why: string) => {
    for (const entry of pending.values()) entry.reject(new Error(why))
    pending.clear()
  }
  child.once("exit", (code, signal) => gone(`the server's process exited (${String(code ?? signal)})`))

  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server's process did not start within ${readyTimeoutMs} ms`)), readyTimeoutMs)
    const onStart = (reply: ChildReply) => {
      if (reply.type !== "started" && reply.type !== "failed") return
      clearTimeout(timer)
      child.off("message", onStart)
      if (reply.type === "started") resolve(reply.origin)
      else reject(new Error(`the server's process failed to start:\n${reply.message}`))
    }
    child.on("message", onStart)
    child.once("exit", (code) => {
      clearTimeout(timer)
      reject(new Error(`the server's process exited with ${String(code)} before it started`))
    })
    const start: ChildStart = { type: "start", env, databaseUrl }
    child.send(start)
  }).catch(async (error: unknown) => {
    child.kill("SIGKILL")
    await exited
    throw error
  })

  child.on("message", (reply: ChildReply) => {
    if (!("id" in reply)) return
    const entry = pending.get(reply.id)
    if (entry === undefined) return
    pending.delete(reply.id)
    if (reply.type === "error") entry.reject(new Error(reply.message))
    else entry.resolve(reply)
  })

  const ask = <T extends ChildReply["type"]>(request: ChildRequest, expected: T): Promise<Extract<ChildReply, { type: T }>> =>
    new Promise((resolve, reject) => {
      if (!child.connected) {
        reject(new Error("the server's process is gone"))
        return
      }
      pending.set(request.id, {
        resolve: (reply) =>
          reply.type === expected
            ? resolve(reply as Extract<ChildReply, { type: T }>)
            : reject(new Error(`expected ${expected}, got ${reply.type}`)),
        reject
      })
      child.send(request)
    })

  const close = async () => {
    if (child.connected) await ask({ type: "close", id: nextId++ }, "done").catch(() => undefined)
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000)
    await exited
    clearTimeout(timer)
  }

  return {
    pid: child.pid ?? 0,
    origin,
    query: async (text, params = []) => (await ask({ type: "query", id: nextId++, text, params }, "rows")).rows,
    lagStart: async () => {
      await ask({ type: "lagStart", id: nextId++ }, "done")
    },
    lagStop: async () => (await ask({ type: "lagStop", id: nextId++ }, "lag")).report,
    prototype: async () => {
      const { names, polluted, arrayTag } = await ask({ type: "prototype", id: nextId++ }, "prototype")
      return { names, polluted, arrayTag }
    },
    close
  }
}
