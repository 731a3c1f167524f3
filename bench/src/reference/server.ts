/**
 * The raw reference server: the three public-form write routes of CONTRACT §3 on plain `node:http`
 * and `postgres`, in the contract's orders of checks, with the same status codes and JSON shapes.
 * Fast paths first; the reads that order error answers happen only when something failed.
 */
import { randomUUID } from "node:crypto"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import { type ClientAddress, clientAddressOf, type ExemptNetworks } from "./client.js"
import { bodyValues, HttpError, readJsonObject, requestIdOf, send, sendError, validationFailed } from "./http.js"
import type { LimitDecision, Limiter } from "./limiter.js"
import type { FormRow, Queries, SubmissionRow } from "./queries.js"
import { type FieldErrors, pickValues, validate } from "./validate.js"

export interface ReferenceOptions {
  readonly submitLimitPerHour: number
  /** Creates and saves together, per client per form (CONTRACT §8 `write`). */
  readonly writeLimitPerHour: number
  readonly tokenGraceSeconds: number
  /** X-Forwarded-For hops to trust (0: the socket's peer is the client). */
  readonly trustProxyHops: number
  readonly exempt: ExemptNetworks
  /** false: the lean floor, no client limit at all (and no headers). */
  readonly limits: boolean
  /** After each committed submit (wakes the outbox consumer). */
  readonly onSubmitted?: () => void
  /** One JSON line per request on stdout, like ours at LOG_LEVEL=info. */
  readonly logRequests: boolean
  /**
   * Mirror ours' round trips (29 per flow instead of 20): the pre-reads of create and save, ours' 7-statement
   * limiter, the unique pre-check at submit and the separate pg_notify. Measures what round trips cost.
   */
  readonly mirrorOurs?: boolean
}

const keyPattern = /^[\x21-\x7E]{16,255}$/
const hourMs = 3_600_000

const toWire = (row: SubmissionRow) => ({
  id: row.id,
  status: row.status,
  idempotency_key: row.idempotency_key,
  auto_save_count: row.auto_save_count,
  event_id: row.event_id,
  values: row.values,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
  submitted_at: row.submitted_at === null ? null : row.submitted_at.toISOString()
})

const formNotFound = () => new HttpError(404, "FORM_NOT_FOUND", "No such form.")
const submissionNotFound = () => new HttpError(404, "SUBMISSION_NOT_FOUND", "No such submission.")
const formClosed = (headers?: Record<string, string>) =>
  new HttpError(409, "FORM_CLOSED", "This form does not accept submissions.", undefined, headers)
const alreadySubmitted = (headers?: Record<string, string>) =>
  new HttpError(409, "SUBMISSION_ALREADY_SUBMITTED", "This submission was already submitted.", undefined, headers)
const uniqueErrors = (fields: FieldErrors | undefined, slugs: ReadonlyArray<string>): FieldErrors => {
  const out: FieldErrors = fields ?? (Object.create(null) as FieldErrors)
  for (const slug of slugs) (out[slug] ??= []).push({ rule: "unique", message: "This value is already taken." })
  return out
}
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The same answer with the limit's headers (every answer from the limit step on carries them). */
const withHeaders = (error: unknown, headers: Record<string, string> | undefined): unknown =>
  error instanceof HttpError && headers !== undefined
    ? new HttpError(error.status, error.code, error.message, error.fields, { ...headers, ...error.headers })
    : error

type Policy = "submit" | "write"

/** The RateLimit headers of a decision; a refused one is the 429 (CONTRACT §8). */
const limitHeaders = (policy: Policy, limit: number, decision: LimitDecision): Record<string, string> => {
  // Ours' answer, word for word (packages/adapters-http/src/errorTable.ts).
  const headers = {
    "ratelimit-policy": `"${policy}";q=${limit};w=3600`,
    ratelimit: `"${policy}";r=${decision.remaining};t=${decision.resetSeconds}`
  }
  if (decision.allowed) return headers
  throw new HttpError(429, "RATE_LIMITED", "Too many requests. Try again later.", undefined, {
    ...headers,
    "retry-after": String(decision.resetSeconds)
  })
}

/** Runs `f`, giving every answer it throws the limit's headers. */
const limited = async <A>(headers: Record<string, string> | undefined, f: () => Promise<A>): Promise<A> => {
  try {
    return await f()
  } catch (error) {
    throw withHeaders(error, headers)
  }
}

export const makeReferenceServer = (q: Queries, limiter: Limiter, options: ReferenceOptions): Server => {
  const now = () => Date.now()
  /** A client counted by the limits, or undefined (the lean floor, or an exempt network). */
  const counted = (client: ClientAddress | undefined): string | undefined =>
    !options.limits ? undefined : client === undefined ? "unknown" : options.exempt.contains(client) ? undefined : client.client

  const resolve = async (token: string): Promise<FormRow> => {
    const form = await q.formByToken(token)
    if (form === undefined || form.status !== "published" || form.type === "artist_advance") throw formNotFound()
    if (form.public_token === token) return form
    const rotated = form.token_rotated_at?.getTime()
    if (rotated !== undefined && now() - rotated < options.tokenGraceSeconds * 1000) return form
    throw formNotFound()
  }
  const accepts = (form: FormRow): boolean =>
    (form.opens_at === null || form.opens_at.getTime() <= now()) &&
    (form.closes_at === null || form.closes_at.getTime() > now())

  /** After a failed fast path: the answer the contract orders before `fallback`. */
  const explain = async (form: FormRow, id: string, fallback: HttpError): Promise<never> => {
    const row = uuidPattern.test(id) ? await q.submissionById(form.id, id) : undefined
    if (row === undefined) throw submissionNotFound()
    if (row.status !== "draft") throw alreadySubmitted()
    throw fallback
  }

  const create = async (token: string, req: IncomingMessage, client: string | undefined) => {
    const body = await readJsonObject(req, false)
    const key = body["idempotency_key"]
    if (key === undefined || key === null) {
      throw validationFailed({ idempotency_key: [{ rule: "required", message: "This field is required." }] })
    }
    if (typeof key !== "string" || !keyPattern.test(key)) {
      throw validationFailed({ idempotency_key: [{ rule: "invalid", message: "Must be 16 to 255 printable characters." }] })
    }
    const values = pickValues(bodyValues(body))
    const form = await resolve(token)
    // The write limit: after the token, before the key lookup (a replay counts).
    const limit = options.writeLimitPerHour
    const headers = client === undefined
      ? undefined
      : limitHeaders("write", limit, (await limiter.hit(`write:${form.id}:${client}`, limit, hourMs)) as LimitDecision)
    return limited(headers, () => createAfterLimit(form, key, values)).then((answer) => ({ ...answer, headers }))
  }

  const createAfterLimit = async (form: FormRow, key: string, values: Record<string, unknown>) => {
    const replay = async (error: HttpError) => {
      const existing = await q.submissionByKey(form.id, key)
      if (existing === undefined) throw error
      return { status: 200, row: existing }
    }
    if (options.mirrorOurs === true) {
      const existing = await q.submissionByKey(form.id, key)
      if (existing !== undefined) return { status: 200, row: existing }
    }
    if (!accepts(form)) return replay(formClosed())
    const check = validate(values, false)
    const taken = check.errors === undefined ? await q.taken(form.id, check.unique) : []
    if (check.errors !== undefined || taken.length > 0) return replay(validationFailed(uniqueErrors(check.errors, taken)))
    const { row, created } = await q.createOrGet(form.id, form.event_id, key, values)
    return { status: created ? 201 : 200, row }
  }

  const save = async (token: string, id: string, req: IncomingMessage, client: string | undefined) => {
    const values = pickValues(bodyValues(await readJsonObject(req, false)))
    const form = await resolve(token)
    if (!uuidPattern.test(id)) throw submissionNotFound()
    // The write limit counts only a submission of this form (an unknown id is a 404 it does not count):
    // one statement checks that and counts.
    const limit = options.writeLimitPerHour
    let headers: Record<string, string> | undefined
    if (client !== undefined) {
      const decision = await limiter.hit(`write:${form.id}:${client}`, limit, hourMs, now(), { schemaId: form.id, id })
      if (decision === undefined) throw submissionNotFound()
      headers = limitHeaders("write", limit, decision)
    }
    return limited(headers, () => saveAfterLimit(form, id, values)).then((answer) => ({ ...answer, headers }))
  }

  const saveAfterLimit = async (form: FormRow, id: string, values: Record<string, unknown>) => {
    if (options.mirrorOurs === true) {
      const row = await q.submissionById(form.id, id)
      if (row === undefined) throw submissionNotFound()
      if (row.status !== "draft") throw alreadySubmitted()
    }
    if (!accepts(form)) return explain(form, id, formClosed())
    const check = validate(values, false)
    const taken = check.errors === undefined ? await q.taken(form.id, check.unique) : []
    if (check.errors !== undefined || taken.length > 0) {
      return explain(form, id, validationFailed(uniqueErrors(check.errors, taken)))
    }
    const row = await q.save(form.id, id, values)
    return row === undefined ? explain(form, id, alreadySubmitted()) : { status: 200, row }
  }

  const submit = async (token: string, id: string, req: IncomingMessage, client: string | undefined) => {
    const patch = pickValues(bodyValues(await readJsonObject(req, true)))
    const form = await resolve(token)
    let row = uuidPattern.test(id) ? await q.submissionById(form.id, id) : undefined
    if (row === undefined) throw submissionNotFound()
    const limit = options.submitLimitPerHour
    const key = `submit:${form.id}:${client}`
    const headers = client === undefined
      ? undefined
      : limitHeaders("submit", limit, options.mirrorOurs === true
        ? await q.hitLikeOurs(key, limit, hourMs)
        : (await limiter.hit(key, limit, hourMs)) as LimitDecision)
    return limited(headers, () => submitAfterLimit(form, id, row, patch, headers))
  }

  const submitAfterLimit = async (
    form: FormRow,
    id: string,
    first: SubmissionRow,
    patch: Record<string, unknown>,
    headers: Record<string, string> | undefined
  ) => {
    let row: SubmissionRow | undefined = first
    if (row.status !== "draft") throw alreadySubmitted(headers)
    if (!accepts(form)) throw formClosed(headers)
    const bodyCheck = validate(patch, false)
    if (bodyCheck.errors !== undefined) throw validationFailed(bodyCheck.errors, headers)
    for (let attempt = 1; attempt <= 50; attempt++) {
      const merged = pickValues({ ...row.values, ...patch })
      const check = validate(merged, true)
      if (check.errors !== undefined) throw validationFailed(check.errors, headers)
      const taken = options.mirrorOurs === true ? await q.taken(form.id, check.unique) : []
      if (taken.length > 0) throw validationFailed(uniqueErrors(undefined, taken), headers)
      const outcome = await q.submit({
        notify: options.mirrorOurs === true,
        schemaId: form.id,
        organisationId: form.organisation_id,
        id: row.id,
        version: row.version,
        values: merged,
        claims: check.unique
      })
      if (outcome._tag === "Submitted") {
        options.onSubmitted?.()
        return { status: 200, row: outcome.row, headers }
      }
      if (outcome._tag === "Taken") throw validationFailed(uniqueErrors(undefined, outcome.slugs), headers)
      row = await q.submissionById(form.id, id)
      if (row === undefined) throw submissionNotFound()
      if (row.status !== "draft") throw alreadySubmitted(headers)
    }
    throw new HttpError(503, "UNAVAILABLE", "The submission kept changing; nothing was submitted.")
  }

  const route = (req: IncomingMessage): { template: string; run: () => Promise<{ status: number; row: SubmissionRow; headers?: Record<string, string> | undefined }> } | undefined => {
    const path = (req.url ?? "/").split("?")[0] ?? "/"
    const parts = path.split("/").map((p) => decodeURIComponent(p))
    if (parts[1] !== "public" || parts[2] !== "forms" || parts[4] !== "submissions") return undefined
    const token = parts[3] ?? ""
    const client = counted(clientAddressOf(req.headers["x-forwarded-for"], req.socket.remoteAddress, options.trustProxyHops))
    if (parts.length === 5 && req.method === "POST") {
      return { template: "/public/forms/:token/submissions", run: () => create(token, req, client) }
    }
    if (parts.length === 6 && req.method === "PUT") {
      return { template: "/public/forms/:token/submissions/:id", run: () => save(token, parts[5] ?? "", req, client) }
    }
    if (parts.length === 7 && parts[6] === "submit" && req.method === "POST") {
      return { template: "/public/forms/:token/submissions/:id/submit", run: () => submit(token, parts[5] ?? "", req, client) }
    }
    return undefined
  }

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = performance.now()
    const requestId = requestIdOf(req.headers["x-request-id"], randomUUID)
    res.setHeader("x-request-id", requestId)
    const matched = route(req)
    try {
      if (matched === undefined) throw new HttpError(404, "NOT_FOUND", "No such route.")
      const answer = await matched.run()
      send(res, answer.status, { data: toWire(answer.row) }, answer.headers)
    } catch (error) {
      if (error instanceof HttpError) sendError(res, error)
      else {
        process.stderr.write(`${JSON.stringify({ level: "ERROR", message: "unexpected failure", request_id: requestId, defect: error instanceof Error ? error.name : typeof error })}\n`)
        sendError(res, new HttpError(500, "INTERNAL", "Something went wrong."))
      }
    }
    if (options.logRequests) {
      process.stdout.write(`${JSON.stringify({
        level: "INFO", timestamp: new Date().toISOString(), message: "request", request_id: requestId,
        method: req.method, route: matched?.template ?? null, status: res.statusCode,
        duration_ms: Math.round(performance.now() - started)
      })}\n`)
    }
  }

  return createServer((req, res) => void handle(req, res))
}
