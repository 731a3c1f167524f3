/** Requests over a keep-alive undici Pool, with a deadline, timed; transport failures are answers too. */
import type { Readable } from "node:stream"
import { Pool } from "undici"
import type { Answer } from "./envelope.js"

export interface Request {
  readonly method: string
  readonly path: string
  readonly headers?: Readonly<Record<string, string | ReadonlyArray<string>>>
  /** A stream is sent chunked (Transfer-Encoding: chunked). */
  readonly body?: string | Uint8Array | Readable
}

export type Outcome =
  | ({ readonly _tag: "Answer"; readonly ms: number } & Answer)
  | { readonly _tag: "Failed"; readonly ms: number; readonly error: string }

export const makePool = (origin: string, connections = 16): Pool =>
  // Idle sockets are dropped well before Node's server closes them (keepAliveTimeout 5 s).
  new Pool(origin, { connections, pipelining: 1, keepAliveTimeout: 2_000, keepAliveMaxTimeout: 2_000, connect: { timeout: 5_000 } })

const jsonHeaders = { "content-type": "application/json" } as const

/** One request; never throws. `timeoutMs` bounds the headers and the body each. */
export const send = async (pool: Pool, request: Request, timeoutMs = 20_000): Promise<Outcome> => {
  const started = performance.now()
  try {
    const response = await pool.request({
      method: request.method,
      path: request.path,
      headers: Object.fromEntries(Object.entries(request.headers ?? {}).map(([k, v]) => [k, typeof v === "string" ? v : [...v]])),
      ...(request.body === undefined ? {} : { body: request.body }),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs
    })
    const text = await response.body.text()
    return { _tag: "Answer", ms: performance.now() - started, status: response.statusCode, headers: response.headers, text }
  } catch (error) {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
    return { _tag: "Failed", ms: performance.now() - started, error: message }
  }
}

export const sendJson = (pool: Pool, method: string, path: string, body?: unknown, timeoutMs?: number) =>
  send(pool, {
    method,
    path,
    headers: body === undefined ? {} : jsonHeaders,
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  }, timeoutMs)

/** Runs `task(i)` for i in [0, count) with at most `concurrency` in flight. */
export const runConcurrently = async (count: number, concurrency: number, task: (i: number) => Promise<void>) => {
  let next = 0
  const worker = async () => {
    while (next < count) {
      const i = next++
      await task(i)
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker))
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
