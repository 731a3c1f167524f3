/** The in-process bridge to PGlite: framing of the wire protocol, the startup phase, and the reset on close. */
import { PGlite } from "@electric-sql/pglite"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Duplex } from "node:stream"
import { PgliteSession } from "../../src/connection/PgliteWire.js"

const frame = (type: string, body: Buffer): Buffer => {
  const out = Buffer.alloc(5 + body.length)
  out.write(type, 0, "latin1")
  out.writeInt32BE(4 + body.length, 1)
  body.copy(out, 5)
  return out
}
const query = (text: string) => frame("Q", Buffer.from(`${text}\0`))
const int32s = (...values: ReadonlyArray<number>) => {
  const out = Buffer.alloc(4 * values.length)
  values.forEach((v, i) => out.writeInt32BE(v, 4 * i))
  return out
}
const startup = () => {
  const body = Buffer.from("user\0postgres\0database\0postgres\0\0")
  return Buffer.concat([int32s(8 + body.length, 196608), body])
}
const sslRequest = () => int32s(8, 80877103)
const cancelRequest = () => int32s(16, 80877102, 1, 2)

interface Message { readonly type: string; readonly body: Buffer }

/** A client reading whole backend messages off a connection. */
const client = (stream: Duplex) => {
  let buffer = Buffer.alloc(0)
  let closed = false
  const waiting: Array<() => void> = []
  stream.on("data", (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk])
    waiting.splice(0).forEach((wake) => wake())
  })
  stream.on("close", () => {
    closed = true
    waiting.splice(0).forEach((wake) => wake())
  })
  const next = () => new Promise<void>((resolve) => waiting.push(resolve))
  /** Messages up to and including the next ReadyForQuery. */
  const untilReady = async (): Promise<Array<Message>> => {
    const messages: Array<Message> = []
    while (true) {
      while (buffer.length >= 5 && buffer.length >= 1 + buffer.readInt32BE(1)) {
        const length = buffer.readInt32BE(1)
        const message = { type: String.fromCharCode(buffer[0] ?? 0), body: buffer.subarray(5, 1 + length) }
        buffer = buffer.subarray(1 + length)
        messages.push(message)
        if (message.type === "Z") return messages
      }
      if (closed) throw new Error(`closed; got ${messages.map((m) => m.type).join("")}`)
      await next()
    }
  }
  const bytes = async (count: number) => {
    while (buffer.length < count && !closed) await next()
    const out = buffer.subarray(0, count)
    buffer = buffer.subarray(count)
    return out
  }
  const whenClosed = async () => {
    while (!closed) await next()
  }
  return { untilReady, bytes, whenClosed }
}

/** The text of every DataRow's first column. */
const values = (messages: ReadonlyArray<Message>) =>
  messages.filter((m) => m.type === "D").map((m) => m.body.subarray(6, 6 + m.body.readInt32BE(2)).toString())

describe("PgliteSession", () => {
  let db: PGlite
  let session: PgliteSession
  beforeAll(async () => {
    db = await PGlite.create()
    session = new PgliteSession(db)
    await db.exec("CREATE TABLE t (v text)")
  }, 60_000)
  afterAll(async () => {
    await session.idle()
    await db.close()
  })

  const connect = async () => {
    const stream = session.open()
    const c = client(stream)
    stream.write(startup())
    const greeting = await c.untilReady()
    expect(greeting[0]?.type).toBe("R")
    return { stream, ...c }
  }

  it("answers an SSL request with N, then takes a startup and queries split into single bytes or batched", async () => {
    const stream = session.open()
    const c = client(stream)
    stream.write(sslRequest())
    expect((await c.bytes(1)).toString()).toBe("N")
    for (const byte of startup()) stream.write(Buffer.from([byte]))
    expect((await c.untilReady()).map((m) => m.type)).toContain("R")
    const batch = Buffer.concat([query("SELECT 'one'"), query("SELECT 'two'"), query("SELECT 'three'")])
    // Cut across message boundaries.
    stream.write(batch.subarray(0, 7))
    stream.write(batch.subarray(7, 30))
    stream.write(batch.subarray(30))
    expect(values(await c.untilReady())).toEqual(["one"])
    expect(values(await c.untilReady())).toEqual(["two"])
    expect(values(await c.untilReady())).toEqual(["three"])
    stream.end(frame("X", Buffer.alloc(0)))
    await c.whenClosed()
  })

  it("a cancel request closes its connection and cancels nothing", async () => {
    const stream = session.open()
    const c = client(stream)
    stream.write(cancelRequest())
    await c.whenClosed()
  })

  it("a connection cut off inside a transaction: rolled back; its settings and prepared statements are gone", async () => {
    const first = await connect()
    first.stream.write(query("BEGIN; INSERT INTO t VALUES ('uncommitted'); SET search_path TO pg_catalog; PREPARE p AS SELECT 1"))
    const inside = await first.untilReady()
    expect(inside.at(-1)?.body.toString()).toBe("T")
    first.stream.destroy()
    await first.whenClosed()
    const second = await connect()
    second.stream.write(query("SELECT count(*)::text FROM public.t"))
    expect(values(await second.untilReady())).toEqual(["0"])
    second.stream.write(query("SHOW search_path"))
    expect(values(await second.untilReady())).toEqual(["public"])
    second.stream.write(query("SELECT count(*)::text FROM pg_prepared_statements"))
    expect(values(await second.untilReady())).toEqual(["0"])
    second.stream.end()
    await second.whenClosed()
    expect(db.isInTransaction()).toBe(false)
  })

  it("a session setting made outside a transaction does not outlive its connection either", async () => {
    const first = await connect()
    first.stream.write(query("SET search_path TO pg_catalog"))
    await first.untilReady()
    first.stream.end(frame("X", Buffer.alloc(0)))
    await first.whenClosed()
    const second = await connect()
    second.stream.write(query("SHOW search_path"))
    expect(values(await second.untilReady())).toEqual(["public"])
    second.stream.destroy()
  })

  it("a malformed message length is refused with a FATAL error and the connection closes", async () => {
    const { stream, untilReady, whenClosed } = await connect()
    stream.write(Buffer.concat([Buffer.from("Q"), int32s(2)]))
    const [error] = await untilReady().catch((e: Error) => {
      expect(e.message).toContain("closed; got E")
      return [{ type: "E", body: Buffer.alloc(0) }]
    })
    expect(error?.type).toBe("E")
    await whenClosed()
  })
})
