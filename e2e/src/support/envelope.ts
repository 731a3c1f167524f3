/** The wire promises of CONTRACT §1 and §7, checked on any response: the envelope, its codes, the request id. */

export const errorCodes: ReadonlySet<string> = new Set([
  "MALFORMED_JSON", "BAD_REQUEST", "HEADERS_TOO_LARGE", "FORM_NOT_FOUND", "SUBMISSION_NOT_FOUND", "TIME_SLOTS_NOT_AVAILABLE", "PORTAL_NOT_FOUND",
  "SECTION_NOT_FOUND", "NOT_FOUND", "METHOD_NOT_ALLOWED", "SUBMISSION_ALREADY_SUBMITTED", "FORM_CLOSED",
  "ARTIST_GONE", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE", "VALIDATION_FAILED", "RATE_LIMITED",
  "UNAVAILABLE", "INTERNAL",
  // The organiser routes (§12).
  "UNAUTHENTICATED", "INVALID_QUERY", "EVENT_NOT_FOUND", "TIME_SLOT_NOT_FOUND", "EVENT_SECTION_NOT_FOUND", "ARTIST_NOT_FOUND", "ENGAGEMENT_NOT_FOUND", "IN_USE",
  // Forms, "Submissions out" and webhooks (§12, §13).
  "CONTACT_NOT_FOUND", "WEBHOOK_NOT_FOUND", "DELIVERY_NOT_FOUND", "OUTBOX_EVENT_NOT_FOUND", "EVENT_NOT_DEAD", "REVISION_CONFLICT",
  "PRECONDITION_REQUIRED",
  // Part III: deadlines and locks, messages, shifts II, files.
  "SECTION_LOCKED", "MESSAGE_NOT_RETRYABLE", "CANCEL_CLOSED", "FILE_QUOTA", "FORBIDDEN", "RESUME_NOT_FOUND",
  "MESSAGE_NOT_FOUND", "FILE_NOT_FOUND", "MANAGE_NOT_FOUND", "PLACE_NOT_FOUND", "FILE_TOO_LARGE"
])

export const fieldRules: ReadonlySet<string> = new Set([
  "required", "in", "email", "url", "numeric", "date", "boolean", "phone", "min", "max", "regex", "unique",
  "invalid", "max_length", "overlap", "full", "closed", "logic", "file_type", "translation"
])

/** The status each code is answered with (§7). */
const statusOfCode: Readonly<Record<string, number>> = {
  MALFORMED_JSON: 400, BAD_REQUEST: 400, HEADERS_TOO_LARGE: 431, FORM_NOT_FOUND: 404, SUBMISSION_NOT_FOUND: 404, TIME_SLOTS_NOT_AVAILABLE: 404,
  PORTAL_NOT_FOUND: 404, SECTION_NOT_FOUND: 404, NOT_FOUND: 404, METHOD_NOT_ALLOWED: 405,
  SUBMISSION_ALREADY_SUBMITTED: 409, FORM_CLOSED: 409, ARTIST_GONE: 410, PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415, VALIDATION_FAILED: 422, RATE_LIMITED: 429, UNAVAILABLE: 503, INTERNAL: 500,
  UNAUTHENTICATED: 401, INVALID_QUERY: 400, EVENT_NOT_FOUND: 404, TIME_SLOT_NOT_FOUND: 404,
  EVENT_SECTION_NOT_FOUND: 404, ARTIST_NOT_FOUND: 404, ENGAGEMENT_NOT_FOUND: 404, IN_USE: 409,
  CONTACT_NOT_FOUND: 404, WEBHOOK_NOT_FOUND: 404, DELIVERY_NOT_FOUND: 404, OUTBOX_EVENT_NOT_FOUND: 404, EVENT_NOT_DEAD: 409,
  REVISION_CONFLICT: 412, PRECONDITION_REQUIRED: 428,
  SECTION_LOCKED: 409, MESSAGE_NOT_RETRYABLE: 409, CANCEL_CLOSED: 409, FILE_QUOTA: 409, FORBIDDEN: 403,
  RESUME_NOT_FOUND: 404, MESSAGE_NOT_FOUND: 404, FILE_NOT_FOUND: 404, MANAGE_NOT_FOUND: 404, PLACE_NOT_FOUND: 404,
  FILE_TOO_LARGE: 413
}

export interface Answer {
  readonly status: number
  readonly headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
  readonly text: string
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const header = (answer: Answer, name: string): string | undefined => {
  const value = answer.headers[name]
  return typeof value === "string" ? value : value?.[0]
}

const fieldsProblem = (fields: unknown): string | undefined => {
  if (!isRecord(fields)) return "fields is not an object"
  for (const [slug, list] of Object.entries(fields)) {
    if (!Array.isArray(list) || list.length === 0) return `fields.${slug} is not a non-empty list`
    for (const item of list) {
      if (!isRecord(item) || Object.keys(item).sort().join() !== "message,rule") return `fields.${slug} has a malformed item`
      if (typeof item["rule"] !== "string" || !fieldRules.has(item["rule"])) return `fields.${slug} has rule ${String(item["rule"])}`
      if (typeof item["message"] !== "string") return `fields.${slug} has a non-string message`
    }
  }
  return undefined
}

/** The error body of a non-2xx answer, or a problem with it. */
export const errorProblem = (answer: Answer): string | undefined => {
  const type = header(answer, "content-type") ?? ""
  if (!/^application\/json\s*(;\s*charset=utf-8\s*)?$/i.test(type)) return `content-type ${JSON.stringify(type)}`
  let body: unknown
  try {
    body = JSON.parse(answer.text)
  } catch {
    return "body is not JSON"
  }
  if (!isRecord(body) || Object.keys(body).join() !== "error") return "body is not { error }"
  const error = body["error"]
  if (!isRecord(error)) return "error is not an object"
  const keys = Object.keys(error).sort().join()
  if (keys !== "code,message" && keys !== "code,fields,message") return `error has keys ${keys}`
  const code = error["code"]
  if (typeof code !== "string" || !errorCodes.has(code)) return `unknown code ${String(code)}`
  if (statusOfCode[code] !== answer.status) return `code ${code} with status ${answer.status}`
  if (typeof error["message"] !== "string" || error["message"].length === 0) return "message is not a string"
  if ("fields" in error) {
    if (code !== "VALIDATION_FAILED") return `fields on ${code}`
    const problem = fieldsProblem(error["fields"])
    if (problem !== undefined) return problem
  }
  if (/\bat .*\(.*:\d+:\d+\)|SELECT |INSERT |UPDATE /.test(answer.text)) return "a stack trace or SQL in the body"
  return undefined
}

/**
 * Every answer: below 500, an `x-request-id`, and on non-2xx the envelope of §1 (HEAD answers have no
 * body to check). Returns a problem, or undefined.
 */
export const answerProblem = (answer: Answer, method: string): string | undefined => {
  if (answer.status >= 500) return `status ${answer.status}: ${answer.text.slice(0, 300)}`
  const id = header(answer, "x-request-id")
  if (id === undefined || !/^[A-Za-z0-9._:-]{1,128}$/.test(id)) return `x-request-id ${String(id)}`
  if (answer.status >= 200 && answer.status < 300) return undefined
  if (method === "HEAD") return undefined
  return errorProblem(answer)
}

export const errorCodeOf = (answer: Answer): string | undefined => {
  try {
    const body: unknown = JSON.parse(answer.text)
    if (isRecord(body) && isRecord(body["error"]) && typeof body["error"]["code"] === "string") return body["error"]["code"]
  } catch {
    return undefined
  }
  return undefined
}

export const dataOf = (answer: Answer): Record<string, unknown> | undefined => {
  try {
    const body: unknown = JSON.parse(answer.text)
    if (isRecord(body) && isRecord(body["data"])) return body["data"]
  } catch {
    return undefined
  }
  return undefined
}
