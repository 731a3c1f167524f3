/**
 * The answer to a request Node's HTTP parser refuses before the application sees it (
 * BAD_REQUEST, HEADERS_TOO_LARGE): the error envelope of the one table, with an `x-request-id`, written on
 * the socket, which then closes. Without it Node answers a bare 400 or 431. Install it on the server:
 * `server.on("clientError", (error, socket) => answerClientError(error, socket, log))`.
 */
import { ServerResponse } from "node:http"
import type { Duplex } from "node:stream"
import { errorBody, type ErrorKey, errorTable } from "./errorTable.js"
import { requestIdFor } from "./requestId.js"

/** What is known of a refused request, for its log line (no method, path or header: nothing was parsed). */
export interface RefusedRequest {
  readonly request_id: string
  readonly status: number
  /** Node's code of the parser error, e.g. `HPE_INVALID_METHOD`, `HPE_HEADER_OVERFLOW`. */
  readonly parser_error: string
}

const statusLines = {
  400: "400 Bad Request",
  413: "413 Payload Too Large",
  431: "431 Request Header Fields Too Large"
} as const

type Answer = "BadRequest" | "HeadersTooLarge" | "PayloadTooLarge"

/**
 * The answer to a parser error, by its code; undefined: none. A connection reset has nobody to answer, and
 * a request that outlived Node's request or header timeout (Node answers 408) has no code of its own: it is
 * closed without an answer.
 */
export const clientErrorAnswer = (code: string | undefined): Answer | undefined => {
  switch (code) {
    case "ECONNRESET":
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return undefined
    case "HPE_HEADER_OVERFLOW":
      return "HeadersTooLarge"
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return "PayloadTooLarge"
    default:
      return "BadRequest"
  }
}

const codeOf = (error: Error): string | undefined =>
  "code" in error && typeof error.code === "string" ? error.code : undefined

/** The response to an earlier request on this connection that is still being written, if any. */
const responseInFlight = (socket: Duplex): ServerResponse | undefined => {
  const message: unknown = Reflect.get(socket, "_httpMessage")
  return message instanceof ServerResponse && !message.writableEnded ? message : undefined
}

export const answerClientError = (
  error: Error,
  socket: Duplex,
  log: (refused: RefusedRequest) => void = () => undefined
): void => {
  const code = codeOf(error)
  const key: ErrorKey | undefined = clientErrorAnswer(code)
  if (key === undefined || !socket.writable) {
    socket.destroy()
    return
  }
  const requestId = requestIdFor(undefined)
  const { status } = errorTable[key]
  const body = errorBody(key)
  const answer = () => {
    socket.end(
      `HTTP/1.1 ${statusLines[status]}\r\n` +
        "content-type: application/json\r\n" +
        `content-length: ${Buffer.byteLength(body)}\r\n` +
        `x-request-id: ${requestId}\r\n` +
        "connection: close\r\n\r\n" +
        body,
      () => socket.destroy()
    )
    // A client that never reads must not keep the socket open.
    setTimeout(() => socket.destroy(), 5_000).unref()
    log({ request_id: requestId, status, parser_error: code ?? "unknown" })
  }
  // Answers go in request order: after the answer to a request pipelined before this one, never inside it.
  const previous = responseInFlight(socket)
  if (previous === undefined) return answer()
  previous.once("finish", answer)
  previous.once("close", () => {
    if (!previous.writableFinished) socket.destroy()
  })
}
