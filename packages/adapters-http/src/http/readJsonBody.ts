/**
 * Reads a request body in the API's order of checks: media type (415), size (413: Content-Length first,
 * then counted while streaming, so an oversized body is never read whole), then JSON (400).
 */
import { Effect, Stream } from "effect"
import { HttpEffect, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { apiError, type ApiErrorOf } from "./errorTable.js"

export type JsonObject = Readonly<Record<string, unknown>>

export type BodyError = ApiErrorOf<"UnsupportedMediaType" | "PayloadTooLarge" | "MalformedJson">

/** A body is present when it has a length above zero, or is chunked. */
export const hasBody = (headers: Readonly<Record<string, string | undefined>>): boolean => {
  if (headers["transfer-encoding"] !== undefined) return true
  const length = headers["content-length"]
  return length !== undefined && length.trim() !== "" && Number(length) > 0
}

/** `application/json`, with or without parameters; a charset, when given, must be UTF-8. */
export const isJsonMediaType = (contentType: string | undefined): boolean => {
  if (contentType === undefined) return false
  const [type, ...params] = contentType.split(";")
  if (type === undefined || type.trim().toLowerCase() !== "application/json") return false
  return params.every((param) => {
    const eq = param.indexOf("=")
    if (eq < 0) return param.trim() === ""
    const name = param.slice(0, eq).trim().toLowerCase()
    const value = param.slice(eq + 1).trim().replace(/^"(.*)"$/, "$1").toLowerCase()
    return name !== "charset" || value === "utf-8" || value === "utf8"
  })
}

/**
 * Refused before the body was read: the connection is closed after the answer, so that the server
 * does not read (and throw away) the rest of an unwanted upload.
 */
export const refuseUnread = <E>(error: E) =>
  HttpEffect.appendPreResponseHandler((_request, response) =>
    Effect.succeed(HttpServerResponse.setHeader(response, "connection", "close"))
  ).pipe(Effect.andThen(Effect.fail(error)))

const isJsonObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const decoder = () => new TextDecoder("utf-8", { fatal: true })

const concat = (chunks: ReadonlyArray<Uint8Array>, total: number): Uint8Array => {
  const out = new Uint8Array(total)
  let offset = 0
  for (const chunk of chunks) {
    out.set(chunk, offset)
    offset += chunk.length
  }
  return out
}

/** Far beyond any valid body (a values map of arrays of strings is 3 deep); Jackson's default limit. */
const maxJsonDepth = 1000

/**
 * Nesting deeper than `maxJsonDepth`, found by one pass over the bytes. JSON.parse spends time on every
 * level while the whole event loop waits, so a body of the size limit nested all the way down would stall
 * every other request.
 */
const tooDeep = (bytes: Uint8Array): boolean => {
  let depth = 0
  let inString = false
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]
    if (inString) {
      if (c === 0x5c) i++
      else if (c === 0x22) inString = false
    } else if (c === 0x22) {
      inString = true
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxJsonDepth) return true
    } else if (c === 0x5d || c === 0x7d) {
      depth--
    }
  }
  return false
}

/**
 * The body as a JSON object, or `undefined` when the request has no body (or an empty one).
 * A body that cannot be read to its end (the client went away), or nested deeper than 1,000 levels,
 * is answered like malformed JSON.
 */
export const readJsonBody = (
  request: HttpServerRequest.HttpServerRequest,
  maxBodyBytes: number
): Effect.Effect<JsonObject | undefined, BodyError, HttpServerRequest.HttpServerRequest> =>
  Effect.gen(function*() {
    const headers = request.headers
    if (!hasBody(headers)) return undefined
    if (!isJsonMediaType(headers["content-type"])) return yield* refuseUnread(apiError("UnsupportedMediaType"))
    const declared = Number(headers["content-length"] ?? "0")
    if (declared > maxBodyBytes) return yield* refuseUnread(apiError("PayloadTooLarge"))
    const bytes = headers["content-length"] === undefined
      ? yield* readCounted(request, maxBodyBytes)
      : new Uint8Array(yield* Effect.mapError(request.arrayBuffer, () => apiError("MalformedJson")))
    if (bytes.length === 0) return undefined
    if (tooDeep(bytes)) return yield* apiError("MalformedJson")
    let parsed: unknown
    try {
      parsed = JSON.parse(decoder().decode(bytes))
    } catch {
      return yield* apiError("MalformedJson")
    }
    if (!isJsonObject(parsed)) return yield* apiError("MalformedJson")
    return parsed
  })

/**
 * A body without a Content-Length (chunked), counted while it streams: past `maxBodyBytes` the rest is
 * left unread and the answer is 413. (With a Content-Length, checked above, Node delivers exactly that
 * many bytes, and `request.arrayBuffer` reads them with far less machinery than a stream.)
 */
const readCounted = (request: HttpServerRequest.HttpServerRequest, maxBodyBytes: number) =>
  Effect.gen(function*() {
    const chunks: Array<Uint8Array> = []
    let total = 0
    yield* request.stream.pipe(
      Stream.mapError(() => apiError("MalformedJson")),
      Stream.runForEachArray((array) => {
        for (const chunk of array) {
          total += chunk.length
          if (total > maxBodyBytes) return refuseUnread(apiError("PayloadTooLarge"))
          chunks.push(chunk)
        }
        return Effect.void
      })
    )
    return concat(chunks, total)
  })
