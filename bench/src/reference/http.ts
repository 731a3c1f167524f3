/** Plain `node:http` plumbing of the reference server: body reading with the §8 limits, envelopes, answers. */
import type { IncomingMessage, ServerResponse } from "node:http"
import type { FieldErrors } from "./validate.js"

export const limits = { maxBodyBytes: 262_144, maxValuesKeys: 500, maxStringLength: 10_000, maxArrayItems: 200 }

/** An answer that ends the request early (the contract's error envelope), thrown by any step. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: FieldErrors,
    readonly headers?: Record<string, string>
  ) {
    super(message)
  }
}

export const validationFailed = (fields: FieldErrors, headers?: Record<string, string>) =>
  new HttpError(422, "VALIDATION_FAILED", "One or more values are invalid.", fields, headers)

export const send = (res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>): void => {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    ...headers,
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text)
  })
  res.end(text)
}

export const sendError = (res: ServerResponse, error: HttpError): void => {
  const body = error.fields === undefined
    ? { error: { code: error.code, message: error.message } }
    : { error: { code: error.code, message: error.message, fields: error.fields } }
  send(res, error.status, body, error.headers)
}

const isJson = (contentType: string | undefined): boolean =>
  contentType !== undefined && /^application\/json\s*(;|$)/i.test(contentType)

/** The body as a JSON object, or `{}` when the route allows none and none came. */
export const readJsonObject = async (req: IncomingMessage, optional: boolean): Promise<Record<string, unknown>> => {
  const length = Number(req.headers["content-length"] ?? "0")
  if (optional && length === 0 && req.headers["transfer-encoding"] === undefined) return {}
  if (!isJson(req.headers["content-type"])) {
    throw new HttpError(415, "UNSUPPORTED_MEDIA_TYPE", "The body must be application/json.")
  }
  if (length > limits.maxBodyBytes) throw new HttpError(413, "PAYLOAD_TOO_LARGE", "The body is too large.")
  const chunks: Array<Buffer> = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > limits.maxBodyBytes) throw new HttpError(413, "PAYLOAD_TOO_LARGE", "The body is too large.")
    chunks.push(chunk)
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.concat(chunks, size).toString("utf8"))
  } catch {
    throw new HttpError(400, "MALFORMED_JSON", "The body is not valid JSON.")
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new HttpError(400, "MALFORMED_JSON", "The body must be a JSON object.")
  }
  return parsed as Record<string, unknown>
}

const codePoints = (s: string): number => {
  let n = 0
  for (const _ of s) n++
  return n
}

/** `values` of a body: absent is `{}`; not an object, or over the §8 size limits, is a 422. */
export const bodyValues = (body: Record<string, unknown>): Record<string, unknown> => {
  const values = body["values"]
  if (values === undefined) return {}
  if (typeof values !== "object" || values === null || Array.isArray(values)) {
    throw validationFailed({ values: [{ rule: "invalid", message: "Must be an object." }] })
  }
  const map = values as Record<string, unknown>
  const keys = Object.keys(map)
  if (keys.length > limits.maxValuesKeys) {
    throw validationFailed({ values: [{ rule: "max_length", message: `At most ${limits.maxValuesKeys} keys.` }] })
  }
  let fields: FieldErrors | undefined
  for (const key of keys) {
    const v = map[key]
    const tooLong = typeof v === "string"
      ? v.length > limits.maxStringLength && codePoints(v) > limits.maxStringLength
      : Array.isArray(v) && (v.length > limits.maxArrayItems ||
        v.some((item) => typeof item === "string" && item.length > limits.maxStringLength))
    if (tooLong) (fields ??= Object.create(null) as FieldErrors)[key] = [{ rule: "max_length", message: "Too long." }]
  }
  if (fields !== undefined) throw validationFailed(fields)
  return map
}

const requestIdPattern = /^[A-Za-z0-9._:-]{1,128}$/

/** A client's request id when well formed, else a generated one. */
export const requestIdOf = (header: string | Array<string> | undefined, generate: () => string): string =>
  typeof header === "string" && requestIdPattern.test(header) ? header : generate()
