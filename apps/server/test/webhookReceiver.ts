/** A real webhook receiver on loopback for the tests: records every request, answers as scripted, can be down. */
import { Effect } from "effect"
import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import type { AddressInfo } from "node:net"

export interface Received {
  readonly headers: Record<string, string>
  readonly body: string
  readonly at: number
}

/** One scripted answer: a status (and headers), or `hang` (never answers). */
export type Answer = { readonly status: number; readonly headers?: Record<string, string> } | "hang"

const plain = (headers: IncomingHttpHeaders): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(headers)) if (typeof v === "string") out[k] = v
  return out
}

export class Receiver {
  readonly received: Array<Received> = []
  /** Answers in order; once used up, 200. */
  readonly script: Array<Answer> = []
  private server: Server | undefined
  constructor(readonly port: number) {}
  get url() {
    return `http://127.0.0.1:${this.port}/hook`
  }
  start(): Promise<void> {
    const server = createServer((req, res) => {
      const chunks: Array<Buffer> = []
      req.on("data", (c: Buffer) => chunks.push(c))
      req.on("end", () => {
        this.received.push({ headers: plain(req.headers), body: Buffer.concat(chunks).toString("utf8"), at: Date.now() })
        const answer = this.script.shift() ?? { status: 200 }
        if (answer === "hang") return
        res.writeHead(answer.status, answer.headers ?? {})
        res.end("ok")
      })
    })
    this.server = server
    return new Promise((resolve) => server.listen(this.port, "127.0.0.1", () => resolve()))
  }
  stop(): Promise<void> {
    const server = this.server
    this.server = undefined
    if (server === undefined) return Promise.resolve()
    server.closeAllConnections()
    return new Promise((resolve) => server.close(() => resolve()))
  }
}

/** A free loopback port (bound, read, released). */
export const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const probe = createServer()
    probe.listen(0, "127.0.0.1", () => {
      const port = (probe.address() as AddressInfo).port
      probe.close(() => resolve(port))
    })
  })

/** A receiver listening on a free port, stopped when the scope closes. */
export const receiverScoped = (listening = true) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const receiver = new Receiver(await freePort())
      if (listening) await receiver.start()
      return receiver
    }),
    (receiver) => Effect.promise(() => receiver.stop())
  )
