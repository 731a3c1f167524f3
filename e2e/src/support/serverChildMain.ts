/**
 * The child process of `serverChild.ts`: the in-process test server (`startInProcess`, offline webhooks) in a
 * process of its own, so that its event loop is the server's alone. It answers the parent's IPC messages: SQL on
 * its database, its event-loop lag, its Object.prototype, and close.
 */
import { type InProcessServer, startInProcess } from "./inProcessServer.js"
import { type LagReport, makeLagMonitor } from "./timing.js"
import type { ChildReply, ChildRequest, ChildStart } from "./serverChildMessages.js"

const send = (reply: ChildReply): void => {
  process.send?.(reply)
}

const prototypeReport = () => {
  const probe: Record<string, unknown> = {}
  return {
    names: Object.getOwnPropertyNames(Object.prototype).sort(),
    polluted: probe["polluted"] !== undefined,
    arrayTag: Object.prototype.toString.call([])
  }
}

const lag = makeLagMonitor()
let lagStarted = false
let lagReport: LagReport | undefined
let server: InProcessServer | undefined

const answer = async (request: ChildRequest): Promise<ChildReply> => {
  switch (request.type) {
    case "query":
      if (server === undefined) throw new Error("the server is not started")
      return { type: "rows", id: request.id, rows: [...await server.query(request.text, request.params)] }
    case "lagStart":
      lag.start()
      lagStarted = true
      return { type: "done", id: request.id }
    case "lagStop":
      lagReport ??= lagStarted ? lag.stop() : undefined
      if (lagReport === undefined) throw new Error("the lag monitor was never started")
      return { type: "lag", id: request.id, report: lagReport }
    case "prototype":
      return { type: "prototype", id: request.id, ...prototypeReport() }
    case "close":
      if (lagStarted) lagReport ??= lag.stop()
      await server?.close()
      server = undefined
      return { type: "done", id: request.id }
  }
}

process.on("message", (message: ChildStart | ChildRequest) => {
  if (message.type === "start") {
    startInProcess(message.env, message.databaseUrl).then(
      (started) => {
        server = started
        send({ type: "started", origin: started.origin })
      },
      (error: unknown) => send({ type: "failed", message: String(error instanceof Error ? error.stack : error) })
    )
    return
  }
  answer(message).then(
    (reply) => {
      send(reply)
      if (message.type === "close") process.disconnect()
    },
    (error: unknown) => send({ type: "error", id: message.id, message: String(error instanceof Error ? error.message : error) })
  )
})
