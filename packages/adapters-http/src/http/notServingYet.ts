/**
 * The port opens a moment before the application's handler is attached (the server must be bound to know its
 * address). Node drops a request that arrives with no `request` listener and leaves its connection open, so a
 * client would wait for its own time-out. Installed on the server before it listens, this answers such a request
 * 503 UNAVAILABLE at once (nothing was written; the connection closes) and steps aside once a handler is there.
 * On shutdown, after the handler is removed, a request on a kept-alive connection gets the same answer.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http"
import { errorBody, errorTable } from "./errorTable.js"
import { requestIdFor } from "./requestId.js"

export const answerUntilServed = (server: Server): void => {
  const body = errorBody("Unavailable")
  const notYet = (_request: IncomingMessage, response: ServerResponse) => {
    if (server.listenerCount("request") > 1) return
    response.writeHead(errorTable.Unavailable.status, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
      "retry-after": "1",
      "x-request-id": requestIdFor(undefined),
      connection: "close"
    })
    response.end(body)
  }
  server.on("request", notYet)
}
