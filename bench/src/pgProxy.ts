/**
 * A TCP proxy in front of PostgreSQL that counts the frontend protocol messages passing through it,
 * so round trips per route can be counted for any client without touching the server's settings.
 * A round trip is a Sync (extended protocol) or a Query (simple protocol): each makes the client
 * wait for ReadyForQuery. Statements are Execute + Query messages.
 */
import { createConnection, createServer, type Server, type Socket } from "node:net"

export interface ProtocolCounts {
  readonly roundTrips: number
  readonly statements: number
  readonly parses: number
  /** Simple-protocol queries (unparameterised text, e.g. BEGIN/COMMIT of some drivers) among the round trips. */
  readonly simpleQueries: number
  readonly connections: number
}

const sslRequest = 80877103
const gssRequest = 80877104

/** Counts messages of one connection's frontend stream; fed chunk by chunk. */
export class FrontendParser {
  private buffer: Buffer = Buffer.alloc(0)
  private startup = true
  readonly counts = { S: 0, Q: 0, E: 0, P: 0 }

  feed(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk])
    for (;;) {
      if (this.startup) {
        if (this.buffer.length < 8) return
        const length = this.buffer.readInt32BE(0)
        if (this.buffer.length < length) return
        const code = this.buffer.readInt32BE(4)
        // After an SSL or GSS request (answered 'N' by the server) the real startup message follows.
        this.startup = code === sslRequest || code === gssRequest
        this.buffer = this.buffer.subarray(length)
        continue
      }
      if (this.buffer.length < 5) return
      const type = String.fromCharCode(this.buffer[0] ?? 0)
      const length = this.buffer.readInt32BE(1)
      if (this.buffer.length < length + 1) return
      if (type === "S" || type === "Q" || type === "E" || type === "P") this.counts[type]++
      this.buffer = this.buffer.subarray(length + 1)
    }
  }
}

export interface CountingProxy {
  readonly port: number
  readonly snapshot: () => ProtocolCounts
  readonly close: () => Promise<void>
}

export const startCountingProxy = async (upstreamHost: string, upstreamPort: number): Promise<CountingProxy> => {
  const parsers: Array<FrontendParser> = []
  const sockets = new Set<Socket>()
  const server: Server = createServer((client) => {
    const parser = new FrontendParser()
    parsers.push(parser)
    const upstream = createConnection({ host: upstreamHost, port: upstreamPort })
    sockets.add(client).add(upstream)
    client.on("data", (chunk: Buffer) => {
      parser.feed(chunk)
      upstream.write(chunk)
    })
    upstream.pipe(client)
    const end = () => {
      client.destroy()
      upstream.destroy()
      sockets.delete(client)
      sockets.delete(upstream)
    }
    client.on("close", end).on("error", end)
    upstream.on("close", end).on("error", end)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  return {
    port,
    snapshot: () => {
      let roundTrips = 0
      let statements = 0
      let parses = 0
      let simpleQueries = 0
      for (const p of parsers) {
        simpleQueries += p.counts.Q
        roundTrips += p.counts.S + p.counts.Q
        statements += p.counts.E + p.counts.Q
        parses += p.counts.P
      }
      return { roundTrips, statements, parses, simpleQueries, connections: parsers.length }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      })
  }
}

export const diffCounts = (after: ProtocolCounts, before: ProtocolCounts): ProtocolCounts => ({
  roundTrips: after.roundTrips - before.roundTrips,
  statements: after.statements - before.statements,
  parses: after.parses - before.parses,
  simpleQueries: after.simpleQueries - before.simpleQueries,
  connections: after.connections - before.connections
})
