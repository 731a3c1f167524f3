import { describe, expect, it } from "vitest"
import { FrontendParser } from "./pgProxy.js"

const untyped = (code: number, extra = Buffer.alloc(0)) => {
  const b = Buffer.alloc(8 + extra.length)
  b.writeInt32BE(8 + extra.length, 0)
  b.writeInt32BE(code, 4)
  extra.copy(b, 8)
  return b
}
const typed = (type: string, body = Buffer.alloc(0)) => {
  const b = Buffer.alloc(5 + body.length)
  b.write(type, 0, "latin1")
  b.writeInt32BE(4 + body.length, 1)
  body.copy(b, 5)
  return b
}

describe("the frontend message counter of the round-trip proxy", () => {
  it("skips an SSL request and the startup message, then counts Parse, Execute, Sync and Query", () => {
    const parser = new FrontendParser()
    const stream = Buffer.concat([
      untyped(80877103),
      untyped(196608, Buffer.from("user\0postgres\0\0")),
      typed("P", Buffer.from("s1\0SELECT 1\0\0\0")), typed("B", Buffer.alloc(10)), typed("E", Buffer.alloc(5)), typed("S"),
      typed("Q", Buffer.from("BEGIN\0")),
      typed("B", Buffer.alloc(10)), typed("E", Buffer.alloc(5)), typed("S")
    ])
    // Fed in awkward pieces: messages split across chunks must still count once.
    for (let i = 0; i < stream.length; i += 7) parser.feed(stream.subarray(i, i + 7))
    expect(parser.counts).toEqual({ S: 2, Q: 1, E: 2, P: 1 })
  })
})
