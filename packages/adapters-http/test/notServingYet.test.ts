import { afterEach, describe, expect, it } from "vitest"
import { createServer, request, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { answerUntilServed } from "../src/index.js"

const servers: Array<Server> = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))))
})

const listening = async (): Promise<{ server: Server; port: number }> => {
  const server = createServer()
  answerUntilServed(server)
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return { server, port: (server.address() as AddressInfo).port }
}

const get = (port: number) =>
  new Promise<{ status: number; headers: Record<string, unknown>; text: string }>((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path: "/public/forms/x", agent: false, timeout: 2_000 }, (res) => {
      let text = ""
      res.setEncoding("utf8")
      res.on("data", (chunk: string) => (text += chunk))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }))
    })
    req.on("timeout", () => req.destroy(new Error("no answer within 2 s")))
    req.on("error", reject)
    req.end()
  })

describe("a request that arrives before the application's handler", () => {
  it("is answered 503 UNAVAILABLE at once, not left open", async () => {
    const { port } = await listening()
    const answer = await get(port)
    expect(answer.status).toBe(503)
    expect(JSON.parse(answer.text)).toEqual({
      error: { code: "UNAVAILABLE", message: "The service is temporarily unavailable. Nothing was written." }
    })
    expect(answer.headers["retry-after"]).toBe("1")
    expect(answer.headers["connection"]).toBe("close")
  })

  it("is left to the handler once one is attached", async () => {
    const { server, port } = await listening()
    server.on("request", (_req, res) => res.end("served"))
    const answer = await get(port)
    expect(answer).toMatchObject({ status: 200, text: "served" })
  })
})
