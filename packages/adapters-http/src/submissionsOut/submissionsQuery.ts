/**
 * The query parameters of "Submissions out": each malformed one is 400 INVALID_QUERY naming it,
 * before the limit step. A parameter given twice is malformed; unknown parameters are ignored.
 */
import { Result } from "effect"
import type { CreatedKey, OutboxState, PageRequest, SubmissionFilter } from "@forms/domain"
import { type KeyCodec, pageRequestOf } from "../http/paging.js"

export type Parsed<A> = Result.Result<A, string>

export const queryOf = (url: string): URLSearchParams => {
  const start = url.indexOf("?")
  return new URLSearchParams(start < 0 ? "" : url.slice(start + 1).split("#")[0])
}

/** The one value of `name`, undefined when absent; Failure(name) when given twice. */
const single = (query: URLSearchParams, name: string): Parsed<string | undefined> => {
  const values = query.getAll(name)
  return values.length > 1 ? Result.fail(name) : Result.succeed(values[0])
}

const oneOf = <L extends string>(query: URLSearchParams, name: string, allowed: ReadonlyArray<L>): Parsed<L | undefined> =>
  Result.flatMap(single(query, name), (value) =>
    value === undefined ? Result.succeed(undefined) : (allowed as ReadonlyArray<string>).includes(value)
      ? Result.succeed(value as L)
      : Result.fail(name))

// ISO 8601: a date, or a date and time with seconds optional, fractions optional and a zone (Z or ±hh:mm).
const isoPattern = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/

/** Epoch ms of an ISO 8601 date or date-time (a date alone is its midnight UTC); undefined when malformed. */
export const parseInstant = (text: string): number | undefined => {
  const m = isoPattern.exec(text)
  if (m === null) return undefined
  // A time needs its zone: without one the instant would depend on the server's.
  if (m[4] !== undefined && !/(Z|[+-]\d{2}:\d{2})$/.test(text)) return undefined
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])]
  // setUTCFullYear, not Date.UTC: Date.UTC reads the years 0–99 as 1900–1999.
  const date = new Date(0)
  date.setUTCFullYear(year, month - 1, day)
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59)) return undefined
  const ms = Date.parse(m[4] === undefined ? `${text}T00:00:00Z` : text)
  return Number.isFinite(ms) ? ms : undefined
}

export const submissionFilterOf = (query: URLSearchParams): Parsed<SubmissionFilter> =>
  Result.flatMap(oneOf(query, "status", ["draft", "submitted"] as const), (status) =>
    Result.flatMap(single(query, "since"), (since): Parsed<SubmissionFilter> => {
      if (since === undefined) return Result.succeed({ status, since: undefined })
      const at = parseInstant(since)
      return at === undefined ? Result.fail("since") : Result.succeed({ status, since: at })
    }))

export const exportFormatOf = (query: URLSearchParams): Parsed<"csv" | "ndjson"> =>
  Result.map(oneOf(query, "format", ["csv", "ndjson"] as const), (format) => format ?? "csv")

export const outboxStateOf = (query: URLSearchParams): Parsed<OutboxState> =>
  Result.map(oneOf(query, "state", ["dead", "pending", "delivered"] as const), (state) => state ?? "dead")

/** U+0000 (a `%00`): PostgreSQL cannot hold it in text, and no stored email contains it. */
export const emailOf = (query: URLSearchParams): Parsed<string | undefined> =>
  Result.flatMap(single(query, "email"), (email) =>
    email !== undefined && (email.trim() === "" || email.length > 1024 || email.includes("\u0000"))
      ? Result.fail("email")
      : Result.succeed(email))

/** `limit` and `cursor` (paging.ts), naming the one that is malformed. */
export const pageOf = (url: string, codec: KeyCodec<CreatedKey>): Parsed<PageRequest<CreatedKey>> => {
  const page = pageRequestOf(url, codec)
  if (Result.isSuccess(page)) return Result.succeed(page.success)
  const query = queryOf(url)
  const limits = query.getAll("limit")
  const limitOnly = limits.length === 0 ? "" : `?${new URLSearchParams(limits.map((l): [string, string] => ["limit", l])).toString()}`
  return Result.fail(Result.isFailure(pageRequestOf(limitOnly, codec)) ? "limit" : "cursor")
}
