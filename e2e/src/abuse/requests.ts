/** fast-check arbitraries of hostile requests for one route: methods, paths, headers, content types, bodies. */
import fc from "fast-check"
import { Readable } from "node:stream"
import type { Request } from "../support/http.js"
import {
  engagementPatchBody,
  formBody,
  formPatchBody,
  portalLinkBody,
  replayBody,
  sectionScheduleBody,
  webhookBody
} from "./adminBodies.js"
import { type Json, jsonWith, key, object, valuesOf, write } from "./jsonText.js"

/** A body, kept small until sent: huge and deep ones are built only when the request goes out. */
export type BodySpec =
  | { readonly kind: "none" }
  | { readonly kind: "text"; readonly text: string; readonly chunks: number }
  | { readonly kind: "bytes"; readonly bytes: Uint8Array }
  | { readonly kind: "huge"; readonly size: number; readonly chunks: number }
  | { readonly kind: "deep"; readonly depth: number; readonly style: "array" | "object" | "values" }

export interface RequestSpec {
  readonly method: string
  readonly path: string
  readonly headers: Readonly<Record<string, string | ReadonlyArray<string>>>
  readonly body: BodySpec
}

export type BodyShape =
  | "create"
  | "values"
  | "admin"
  | "engagement"
  | "engagementPatch"
  | "portalLink"
  | "sectionSchedule"
  | "form"
  | "formPatch"
  | "webhook"
  | "webhookPatch"
  | "replay"
  | "none"

const otherMethods = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "PROPFIND", "SEARCH", "PURGE", "LOCK"]

export const method = (own: string): fc.Arbitrary<string> =>
  fc.oneof({ weight: 6, arbitrary: fc.constant(own) }, { weight: 3, arbitrary: fc.constantFrom(...otherMethods) })

/** A path segment: valid, unknown, encoded junk, dangerous names, very long. */
export const segment = (valid: ReadonlyArray<string>): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...valid) },
    { weight: 2, arbitrary: fc.string({ minLength: 1, maxLength: 40 }).map(encodeURIComponent) },
    fc.constantFrom("__proto__", "constructor", "prototype", "%zz", "%", "%00", "%2F", "%2e%2e", "..", ".",
      "%E0%A4%A", "%C0%AF", "a".repeat(5000), "0192f1c4-0000-0000-0000-000000000000", "%F0%9F%92%A5", "\u00e9\u00ff"),
    fc.stringMatching(/^[A-Za-z0-9._~!$&'()*+,;=:@-]{1,60}$/)
  )

const pathSuffix = fc.oneof(
  { weight: 12, arbitrary: fc.constant("") },
  fc.constantFrom("/", "?", "?a=1", "?__proto__[polluted]=1&constructor[prototype][polluted]=1", "//", "?%zz=%zz",
    "?values=1&idempotency_key=2", "/..", "/./")
)

const forbiddenHeaders = new Set(["connection", "keep-alive", "upgrade", "transfer-encoding", "content-length", "expect", "host", "te", "trailer", "proxy-connection"])

const headerName = fc.stringMatching(/^[a-z][a-z0-9-]{0,24}$/).filter((n) => !forbiddenHeaders.has(n))
const headerValue = fc.string({ unit: "grapheme-ascii", maxLength: 80 }).map((s) => s.trim())

const address = fc.oneof(fc.ipV4(), fc.ipV6(), fc.constantFrom("unknown", "", "127.0.0.1", "::ffff:10.0.0.1", "[::1]:80", "1.2.3.4:5678", "_hidden", "999.999.999.999"))
/** Up to ~10 KB of addresses: below Node's 16 KiB header limit, which Node itself answers before the app. */
const forwardedFor = fc.array(address, { minLength: 1, maxLength: 250 }).map((list) => list.join(", ").slice(0, 10_000))

export const contentType = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom("application/json", "application/json; charset=utf-8") },
  fc.constantFrom("application/json; charset=latin1", "application/json; charset=\"UTF-8\"", "APPLICATION/JSON",
    "application/json;;;", "application/jsonx", "text/plain", "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x", "", "application/json; charset=utf-16", "*/*", "application/problem+json"),
  headerValue
)

export const headers = (withBody: boolean): fc.Arbitrary<Record<string, string | ReadonlyArray<string>>> =>
  fc.record(
    {
      "content-type": withBody ? contentType : fc.oneof(fc.constant("application/json"), contentType),
      "x-forwarded-for": fc.oneof(forwardedFor, fc.array(forwardedFor, { minLength: 2, maxLength: 3 })),
      "x-request-id": fc.oneof(fc.stringMatching(/^[A-Za-z0-9._:-]{1,128}$/), headerValue, fc.constant("x".repeat(129))),
      "accept": fc.constantFrom("*/*", "text/html", "application/json", "application/xml", "image/*;q=0.1"),
      "accept-encoding": fc.constantFrom("gzip", "br", "identity", "*", "zstd;q=1, gzip;q=0"),
      "origin": fc.constantFrom("http://evil.example", "null"),
      "cookie": headerValue
    },
    { requiredKeys: withBody ? ["content-type"] : [] }
  ).chain((known) =>
    fc.array(fc.tuple(headerName, headerValue), { maxLength: 6 }).map((extra) => {
      const all: Record<string, string | ReadonlyArray<string>> = Object.create(null) as Record<string, never>
      for (const [name, value] of extra) all[name] = value
      return Object.assign(all, known)
    })
  )

const uuid = fc.uuid().map((u) => JSON.stringify(u))
const idempotencyKey: fc.Arbitrary<Json> = fc.oneof(
  { weight: 5, arbitrary: uuid.map((raw) => ({ raw })) },
  fc.constantFrom<Json>(null, "", "   ", "short", "x".repeat(256), "with space in it 0123456789", "ünïcödé-0123456789abc", 42, true),
  jsonWith(key)
)

/** Members of organiser bodies (CONTRACT §12), with plausible and hostile values. */
const adminMember = fc.constantFrom("name", "parent_event_id", "date", "start_time", "end_time", "capacity", "type",
  "show_in_registration", "position", "__proto__", "id", "event_id", "master_artist_id", "advance_sections")
const adminValue: fc.Arbitrary<Json> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom<Json>("Stage", "2027-08-20", "2027-02-30", "08:00", "24:00", "23:59", 1, 0, -1, 2.5,
    1e300, 2147483648, 9007199254740993, true, null, "", "\u0000", "ev-e2e", "ev-e2e-day", "x".repeat(201), "🎪".repeat(200)) },
  jsonWith(key)
)
const adminBody = fc.array(fc.tuple(adminMember, adminValue), { maxLength: 6 }).map((members) => write(object(...members)))

/** `POST /admin/engagements`: mostly its own members (fixture ids of both organisations, junk), sections hostile. */
const member = (name: string, value: Json | undefined): ReadonlyArray<readonly [string, Json]> =>
  value === undefined ? [] : [[name, value]]
const advanceSection: fc.Arbitrary<Json> = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(fc.option(adminValue, { nil: undefined }), fc.option(adminValue, { nil: undefined }))
    .map(([name, position]) => object(...member("name", name), ...member("position", position))) },
  fc.tuple(key, adminValue).map(([k, v]) => object(["name", "Travel"], ["position", 1], [k, v])),
  adminValue
)
const validSection: fc.Arbitrary<Json> = fc.tuple(fc.constantFrom("Travel", "Rider", "🎪".repeat(200)), fc.integer({ min: -5, max: 5 }))
  .map(([name, position]) => object(["name", name], ["position", position]))
// Well-formed sometimes, so that writes (201) are fuzzed too, not only refusals.
const advanceSections: fc.Arbitrary<Json> = fc.oneof(
  { weight: 4, arbitrary: fc.array(validSection, { maxLength: 3 }) },
  { weight: 4, arbitrary: fc.array(advanceSection, { maxLength: 4 }) },
  fc.constant(Array.from({ length: 101 }, (_, i) => object(["name", `s${i}`], ["position", i]))),
  adminValue
)
const reference = (ids: ReadonlyArray<string>): fc.Arbitrary<Json> =>
  fc.oneof({ weight: 3, arbitrary: fc.constantFrom<Json>(...ids) }, adminValue)
const engagementBody = fc.tuple(
  fc.option(reference(["ev-e2e", "ev-e2e-day", "ev-e2e-gone"]), { nil: undefined, freq: 8 }),
  fc.option(reference(["ma-e2e", "ma-e2e-gone"]), { nil: undefined, freq: 8 }),
  fc.option(advanceSections, { nil: undefined, freq: 8 }),
  fc.oneof({ weight: 3, arbitrary: fc.constant([]) }, fc.array(fc.tuple(adminMember, adminValue), { maxLength: 2 }))
).map(([event, artist, sections, extra]) =>
  write(object(...member("event_id", event), ...member("master_artist_id", artist), ...member("advance_sections", sections), ...extra))
)

/** A body of the route's own shape, with hostile values. */
const shaped = (shape: BodyShape, slugs: ReadonlyArray<string>): fc.Arbitrary<string> => {
  if (shape === "admin") return adminBody
  if (shape === "engagement") return engagementBody
  if (shape === "engagementPatch") return engagementPatchBody
  if (shape === "portalLink") return portalLinkBody
  if (shape === "sectionSchedule") return sectionScheduleBody
  if (shape === "form") return formBody
  if (shape === "formPatch") return formPatchBody
  if (shape === "webhook") return webhookBody(false)
  if (shape === "webhookPatch") return webhookBody(true)
  if (shape === "replay") return replayBody
  const values = fc.oneof({ weight: 6, arbitrary: valuesOf(slugs) }, jsonWith(key))
  const entries = shape === "create"
    ? fc.tuple(fc.option(idempotencyKey, { nil: undefined }), fc.option(values, { nil: undefined }))
      .map(([k, v]) => [...(k === undefined ? [] : [["idempotency_key", k] as const]), ...(v === undefined ? [] : [["values", v] as const])])
    : fc.option(values, { nil: undefined }).map((v) => (v === undefined ? [] : [["values", v] as const]))
  return fc.tuple(entries, fc.array(fc.tuple(key, jsonWith(key)), { maxLength: 3 }))
    .map(([own, extra]) => write(object(...own, ...extra)))
}

/** Just over the §8 limits (keys, string length, items), all within the body size limit. */
const overLimits = fc.constantFrom(
  `{"values":{${Array.from({ length: 501 }, (_, i) => `"k${i}":1`).join(",")}}}`,
  `{"values":{"note":"${"x".repeat(10_001)}"}}`,
  `{"values":{"note":"${"💥".repeat(10_001)}"}}`,
  `{"values":{"roles":[${Array.from({ length: 201 }, () => `"bar"`).join(",")}]}}`,
  `{"idempotency_key":"${"k".repeat(255)}","values":{"__proto__":"${"x".repeat(10_001)}"}}`
)

const deep = fc.record({
  depth: fc.constantFrom(64, 1000, 20_000, 100_000),
  style: fc.constantFrom("array", "object", "values")
}).map(({ depth, style }): BodySpec => ({ kind: "deep", depth, style }))

/** [before, unit open, middle, unit close, after] of each deep style. */
const deepParts = {
  array: [`{"values":{"note":`, "[", "", "]", "}}"],
  object: [`{"values":{"__proto__":`, `{"a":`, "1", "}", "}}"],
  values: [`{"values":`, `{"__proto__":`, "{}", "}", "}"]
} as const

/** A body for a route: mostly its own shape; otherwise anything a hostile client sends. */
export const body = (shape: BodyShape, slugs: ReadonlyArray<string>): fc.Arbitrary<BodySpec> => {
  const text = (arb: fc.Arbitrary<string>) =>
    fc.tuple(arb, fc.oneof({ weight: 5, arbitrary: fc.constant(1) }, fc.integer({ min: 2, max: 5 })))
      .map(([t, chunks]): BodySpec => ({ kind: "text", text: t, chunks }))
  const hostile = fc.oneof(
    { weight: 2, arbitrary: text(jsonWith(key).map(write)) },
    text(fc.string({ maxLength: 200 })),
    text(fc.constantFrom("", "{", "null", "[]", "\"x\"", "1", "{\"values\":", "\uFEFF{}", "{}garbage", "{\"a\":1,}")),
    fc.uint8Array({ maxLength: 400 }).map((bytes): BodySpec => ({ kind: "bytes", bytes })),
    fc.constantFrom<BodySpec>(
      { kind: "bytes", bytes: Uint8Array.from([0x7b, 0x22, 0x76, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]) },
      { kind: "bytes", bytes: Uint8Array.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]) }
    ),
    deep,
    fc.record({ size: fc.constantFrom(262_145, 300_000, 1_000_000), chunks: fc.constantFrom(1, 8) })
      .map(({ size, chunks }): BodySpec => ({ kind: "huge", size, chunks })),
    text(overLimits)
  )
  if (shape === "none") return fc.oneof({ weight: 6, arbitrary: fc.constant<BodySpec>({ kind: "none" }) }, hostile)
  return fc.oneof({ weight: 8, arbitrary: text(shaped(shape, slugs)) }, { weight: 1, arbitrary: fc.constant<BodySpec>({ kind: "none" }) }, { weight: 5, arbitrary: hostile })
}

const chunked = (data: string, chunks: number): Readable => {
  const size = Math.ceil(data.length / chunks)
  const parts = Array.from({ length: chunks }, (_, i) => Buffer.from(data.slice(i * size, (i + 1) * size)))
  return Readable.from(parts)
}

/** The request as sent: huge and deep bodies are built here, and chunked bodies are streams. */
export const materialize = (spec: RequestSpec): Request => {
  const headers = spec.headers
  const base = { method: spec.method, path: spec.path, headers }
  const b = spec.body
  if (spec.method === "HEAD" || b.kind === "none") return base
  if (b.kind === "bytes") return { ...base, body: b.bytes }
  if (b.kind === "deep") {
    const [before, open, middle, close, after] = deepParts[b.style]
    return { ...base, body: before + open.repeat(b.depth) + middle + close.repeat(b.depth) + after }
  }
  const data = b.kind === "huge" ? `{"values":{"note":"${"x".repeat(b.size)}"}}` : b.text
  return { ...base, body: b.chunks > 1 ? chunked(data, b.chunks) : data }
}

/** A request to one route: its method (or another), a generated path, headers and a body. */
export const requestTo = (ownMethod: string, path: fc.Arbitrary<string>, shape: BodyShape, slugs: ReadonlyArray<string>) =>
  fc.record({ method: method(ownMethod), path: fc.tuple(path, pathSuffix).map(([p, s]) => p + s), body: body(shape, slugs) })
    .chain((r) => headers(r.body.kind !== "none").map((h): RequestSpec => ({ ...r, headers: h })))
