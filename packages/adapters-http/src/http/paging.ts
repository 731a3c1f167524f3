/**
 * Organiser list paging on the wire: `?limit=` 1–200 (default 50) and `?cursor=`, an
 * opaque base64url of the last row's sort key. Anything malformed is 400 INVALID_QUERY, before the limit step.
 */
import { Result } from "effect"
import type { CreatedKey, PageRequest, SectionKey, SlotKey } from "@forms/domain"

export const defaultLimit = 50
export const maxLimit = 200
const maxCursorLength = 4096

type Part = string | number

export const encodeCursor = (parts: ReadonlyArray<Part>): string =>
  Buffer.from(JSON.stringify(parts), "utf8").toString("base64url")

const isText = (v: unknown): v is string => typeof v === "string" && v.length <= 1024 && !v.includes("\u0000")
const isDate = (v: unknown): v is string =>
  typeof v === "string" && /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) &&
  new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v && v >= "0001-01-01"
const isTime = (v: unknown): v is string => typeof v === "string" && /^([01]\d|2[0-3]):[0-5]\d$/.test(v)
const isEpochMs = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v >= 0 && v <= 8.64e15

/** The JSON array inside a cursor, or undefined when it is not one of ours. */
const parts = (cursor: string): ReadonlyArray<unknown> | undefined => {
  if (cursor.length === 0 || cursor.length > maxCursorLength || !/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"))
    return Array.isArray(parsed) ? parsed : undefined
  } catch {
    return undefined
  }
}

export interface KeyCodec<K> {
  readonly encode: (key: K) => string
  readonly decode: (cursor: string) => K | undefined
}

export const createdCodec: KeyCodec<CreatedKey> = {
  encode: (k) => encodeCursor([k.created_at, k.id]),
  decode: (cursor) => {
    const p = parts(cursor)
    if (p?.length !== 2 || !isEpochMs(p[0]) || !isText(p[1])) return undefined
    return { created_at: p[0], id: p[1] }
  }
}

export const slotCodec: KeyCodec<SlotKey> = {
  encode: (k) => encodeCursor([k.date, k.start_time, k.name, k.id]),
  decode: (cursor) => {
    const p = parts(cursor)
    if (p?.length !== 4 || !isDate(p[0]) || !isTime(p[1]) || !isText(p[2]) || !isText(p[3])) return undefined
    return { date: p[0], start_time: p[1], name: p[2], id: p[3] }
  }
}

export const sectionCodec: KeyCodec<SectionKey> = {
  encode: (k) => encodeCursor([k.position, k.name, k.id]),
  decode: (cursor) => {
    const p = parts(cursor)
    const position = p?.[0]
    if (p?.length !== 3 || typeof position !== "number" || !Number.isFinite(position) || !isText(p[1]) || !isText(p[2])) {
      return undefined
    }
    return { position, name: p[1], id: p[2] }
  }
}

/** The page a request asks for, from its URL's query. */
export const pageRequestOf = <K>(url: string, codec: KeyCodec<K>): Result.Result<PageRequest<K>, "InvalidQuery"> => {
  const start = url.indexOf("?")
  const query = new URLSearchParams(start < 0 ? "" : url.slice(start + 1).split("#")[0])
  const limits = query.getAll("limit")
  const cursors = query.getAll("cursor")
  if (limits.length > 1 || cursors.length > 1) return Result.fail("InvalidQuery")
  let limit = defaultLimit
  const rawLimit = limits[0]
  if (rawLimit !== undefined) {
    if (!/^\d{1,3}$/.test(rawLimit)) return Result.fail("InvalidQuery")
    limit = Number(rawLimit)
    if (limit < 1 || limit > maxLimit) return Result.fail("InvalidQuery")
  }
  const rawCursor = cursors[0]
  if (rawCursor === undefined) return Result.succeed({ limit, after: undefined })
  const after = codec.decode(rawCursor)
  return after === undefined ? Result.fail("InvalidQuery") : Result.succeed({ limit, after })
}

/** `{ data, next_cursor }`: the cursor of the last item when a row follows, else null. */
export const listBody = <A, K, W>(
  page: { readonly items: ReadonlyArray<A>; readonly more: boolean },
  keyOf: (a: A) => K,
  codec: KeyCodec<K>,
  toWire: (a: A) => W
) => {
  const last = page.items.at(-1)
  return {
    data: page.items.map(toWire),
    next_cursor: page.more && last !== undefined ? codec.encode(keyOf(last)) : null
  }
}
