/** The JSON API as the elements see it: one fetch helper that never throws on an HTTP status. */

export interface FieldError {
  readonly rule: string
  readonly message: string
}

export type FieldErrors = Readonly<Record<string, ReadonlyArray<FieldError>>>

/** An answer of the API, or `network` when no answer came (offline, DNS, CORS refused). */
export type Answer =
  | { readonly kind: "ok"; readonly status: number; readonly data: unknown }
  | {
    readonly kind: "error"
    readonly status: number
    readonly code: string
    readonly message: string
    readonly fields: FieldErrors
    /** Seconds, from `Retry-After` (429). */
    readonly retryAfter: number | undefined
  }
  | { readonly kind: "network" }

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const fieldErrorsOf = (raw: unknown): FieldErrors => {
  const out: Record<string, ReadonlyArray<FieldError>> = Object.create(null)
  if (!isRecord(raw)) return out
  for (const [slug, list] of Object.entries(raw)) {
    if (!Array.isArray(list)) continue
    out[slug] = list.filter(isRecord).map((e) => ({ rule: String(e["rule"]), message: String(e["message"]) }))
  }
  return out
}

export interface Request {
  readonly method?: string
  readonly body?: unknown
  /** For the save sent while the page is being hidden: the browser finishes it after the page is gone. */
  readonly keepalive?: boolean
}

/** Calls `url` (absolute, or relative to the page); JSON in, `{ data }` or `{ error }` out. */
export const call = async (url: string, init: Request = {}): Promise<Answer> => {
  let response: Response
  try {
    response = await fetch(url, {
      method: init.method ?? "GET",
      headers: init.body === undefined ? {} : { "content-type": "application/json" },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      ...(init.keepalive === true ? { keepalive: true } : {}),
      credentials: "omit",
      referrerPolicy: "no-referrer",
      cache: "no-store"
    })
  } catch {
    return { kind: "network" }
  }
  let json: unknown = undefined
  try {
    json = await response.json()
  } catch {
    json = undefined
  }
  if (response.ok && isRecord(json)) return { kind: "ok", status: response.status, data: json["data"] }
  const error = isRecord(json) && isRecord(json["error"]) ? json["error"] : {}
  const retry = Number(response.headers.get("retry-after"))
  return {
    kind: "error",
    status: response.status,
    code: typeof error["code"] === "string" ? error["code"] : "HTTP_" + response.status,
    message: typeof error["message"] === "string" ? error["message"] : "Something went wrong.",
    fields: fieldErrorsOf(error["fields"]),
    retryAfter: Number.isFinite(retry) && retry > 0 ? retry : undefined
  }
}

/** "in 40 seconds", "in 3 minutes": the wait of a 429, for people. */
export const waitText = (seconds: number | undefined): string => {
  if (seconds === undefined) return "in a little while"
  if (seconds < 90) return `in ${Math.ceil(seconds)} seconds`
  const minutes = Math.ceil(seconds / 60)
  return minutes < 90 ? `in ${minutes} minutes` : `in ${Math.ceil(minutes / 60)} hours`
}

/** A fresh idempotency key (CONTRACT §3: 16–255 printable characters; a UUID). */
export const newKey = (): string => crypto.randomUUID()
