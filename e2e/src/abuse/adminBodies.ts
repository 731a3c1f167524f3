/**
 * Bodies of the organiser routes of CONTRACT §12 (forms) and §13 (webhooks): mostly well-formed, so that
 * writes are fuzzed too, with members replaced by hostile values, unknown members, dangerous keys.
 */
import fc from "fast-check"
import { type Json, jsonWith, key, leaf, object, pollution, write } from "./jsonText.js"

/** Mostly nothing (a well-formed body), otherwise up to three of `item`. */
const fewOrNone = <A>(item: fc.Arbitrary<A>): fc.Arbitrary<ReadonlyArray<A>> =>
  fc.oneof({ weight: 3, arbitrary: fc.constant([]) }, fc.array(item, { minLength: 1, maxLength: 3 }))

/** Mostly undefined (the member is absent), sometimes `item`. */
const rarely = <A>(item: fc.Arbitrary<A>): fc.Arbitrary<A | undefined> =>
  fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, item)

const member = (name: string, value: Json | undefined): ReadonlyArray<readonly [string, Json]> =>
  value === undefined ? [] : [[name, value]]

/** Values that are plausible somewhere in a definition, and hostile everywhere. */
const hostile: fc.Arbitrary<Json> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom<Json>("volunteer", "registration", "artist_advance", "general", "text", "email",
    "select", "multi_select", "time_slots", "numeric", "date", "published", "archived", "draft", "ev-e2e", "ev-e2e-day",
    "ev-e2e-gone", "2027-08-20T10:00:00Z", "2027-02-30T10:00:00Z", "2027-08-20", "(a*)*b", "[", "a{1000000}", "full_name",
    "Full Name", "x".repeat(201), "🎪".repeat(300), "", " ", "\u0000", "\ud800", null, true, 0, -1, 1, 2.5, 1e300,
    "*", "https://hooks.example.com/in", "http://127.0.0.1/x") },
  { weight: 2, arbitrary: leaf },
  jsonWith(key)
)

const option: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>("S", "M", "bar", "", "\u0000"),
  fc.tuple(fc.option(hostile, { nil: undefined }), fc.option(hostile, { nil: undefined }), fc.option(hostile, { nil: undefined }))
    .map(([value, label, tags]) => object(...member("value", value), ...member("label", label), ...member("tags", tags))),
  hostile
)

const fieldMembers = ["id", "section_id", "slug", "label", "type", "is_required", "options", "validation_rules", "is_unique",
  "position", "maps_to"] as const

const rules: fc.Arbitrary<Json> = fc.oneof(
  fc.tuple(fc.option(hostile, { nil: undefined }), fc.option(hostile, { nil: undefined }), fc.option(hostile, { nil: undefined }))
    .map(([min, max, regex]) => object(...member("min", min), ...member("max", max), ...member("regex", regex))),
  hostile
)

/** A field: a valid one of several types, then up to three members replaced. */
const field: fc.Arbitrary<Json> = fc.tuple(
  fc.constantFrom(
    ["full_name", "Name", "text"], ["email", "Email", "email"], ["shirt", "Shirt", "select"], ["roles", "Roles", "multi_select"],
    ["shifts", "Shifts", "time_slots"], ["born", "Born", "date"], ["hours", "Hours", "numeric"]
  ),
  fewOrNone(fc.tuple(fc.constantFrom(...fieldMembers), fc.oneof(hostile, rules, fc.array(option, { maxLength: 4 }))))
).map(([[slug, label, type], changes]) => {
  const base: Record<string, Json> = { slug, label, type }
  if (type === "select" || type === "multi_select") base["options"] = ["S", "M", "bar"]
  const entries = Object.entries(base).filter(([k]) => !changes.some(([c]) => c === k))
  return object(...entries, ...changes)
})

const formMembers = ["name", "type", "event_id", "status", "opens_at", "closes_at", "tags", "sections", "fields"] as const

const section: fc.Arbitrary<Json> = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom("sec-a", "sec-b", "sec-a"), fc.integer({ min: -2, max: 3 }))
    .map(([id, position]) => object(["id", id], ["name", "About"], ["position", position])) },
  hostile
)

/** A form definition (§12): well-formed most of the time, then members replaced or added. */
export const formBody: fc.Arbitrary<string> = fc.tuple(
  fc.constantFrom("volunteer", "registration", "general"),
  fc.constantFrom<Json>("ev-e2e", "ev-e2e-day", null),
  fc.oneof({ weight: 3, arbitrary: fc.array(field, { maxLength: 4 }) }, fc.constant(Array.from({ length: 501 }, (_, i) =>
    object(["slug", `f${i}`], ["label", "L"], ["type", "text"]))), hostile),
  fc.option(fc.array(section, { maxLength: 3 }), { nil: undefined }),
  fewOrNone(fc.tuple(fc.oneof(fc.constantFrom(...formMembers), key), hostile)),
  rarely(pollution)
).map(([type, event, fields, sections, changes, danger]) => {
  const base: Array<readonly [string, Json]> = [["name", "Abuse form"], ["type", type], ["event_id", event], ["fields", fields],
    ...member("sections", sections)]
  const kept = base.filter(([k]) => !changes.some(([c]) => c === k))
  return write(object(...(danger === undefined ? [] : [danger]), ...kept, ...changes))
})

/** `PATCH /admin/forms/{id}`: name, status, dates, tags. */
const patchValue: fc.Arbitrary<readonly [string, Json]> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom<readonly [string, Json]>(["name", "Renamed"], ["status", "published"], ["status", "archived"],
    ["status", "draft"], ["opens_at", "2027-01-01T00:00:00Z"], ["closes_at", null], ["tags", ["a", "b"]], ["opens_at", null]) },
  fc.tuple(fc.oneof({ weight: 4, arbitrary: fc.constantFrom("name", "status", "opens_at", "closes_at", "tags") }, key), hostile)
)
export const formPatchBody: fc.Arbitrary<string> = fc.array(patchValue, { maxLength: 4 }).map((members) => write(object(...members)))

const url: fc.Arbitrary<Json> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom<Json>("https://hooks.example.com/in", "https://hooks.example.com/in?a=1#f") },
  fc.constantFrom<Json>("http://hooks.example.com/in", "https://user:pw@hooks.example.com/", "https://127.0.0.1/",
    "https://[::1]/", "https://10.0.0.1/", "ftp://x.y/", "https://", "https:///x", "//x.y", "https://exa mple.com/",
    "https://" + "a".repeat(3000) + ".com/", "https://ex\u0000ample.com/", "https://xn--80ak6aa92e.com/", "javascript:x"),
  fc.webUrl().map((u): Json => u),
  hostile
)
const eventTypes: fc.Arbitrary<Json> = fc.oneof(
  { weight: 3, arbitrary: fc.subarray(["submission.submitted", "section.submitted", "submission.erased", "section.locked",
    "section.reopened"]).map((t): Json => t) },
  fc.constantFrom<Json>(["*"], ["*", "submission.submitted"], [], ["webhook.test"], ["submission.submitted", "submission.submitted"]),
  fc.array(hostile, { maxLength: 3 }),
  hostile
)

/** `POST /admin/webhooks` and `PATCH /admin/webhooks/{id}`: url, event_types, description (and enabled). */
export const webhookBody = (patch: boolean): fc.Arbitrary<string> =>
  fc.tuple(
    fc.option(url, { nil: undefined, freq: patch ? 2 : 8 }),
    fc.option(eventTypes, { nil: undefined, freq: patch ? 2 : 8 }),
    fc.option(fc.oneof({ weight: 2, arbitrary: fc.constantFrom<Json>("Our CRM", null) }, hostile), { nil: undefined, freq: 2 }),
    patch
      ? fc.option(fc.oneof({ weight: 2, arbitrary: fc.boolean().map((b): Json => b) }, hostile), { nil: undefined })
      : rarely(fc.oneof({ weight: 2, arbitrary: fc.boolean().map((b): Json => b) }, hostile)),
    fewOrNone(fc.tuple(key, hostile))
  ).map(([u, types, description, enabled, extra]) =>
    write(object(...member("url", u), ...member("event_types", types), ...member("description", description),
      ...member("enabled", enabled), ...extra)))

/** `POST /admin/webhooks/{id}/replay`: `{ since }`. */
export const replayBody: fc.Arbitrary<string> = fc.tuple(
  fc.option(fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom<Json>("2020-01-01T00:00:00Z", "2027-08-20", "1970-01-01", "2027-02-30", "2020-01-01T25:00:00Z",
      "9999-12-31T23:59:59Z", "0000-01-01", "+275760-09-13T00:00:00Z", "2020-01-01T00:00:00") },
    fc.date({ noInvalidDate: true }).map((d): Json => d.toISOString()),
    hostile
  ), { nil: undefined, freq: 8 }),
  fewOrNone(fc.tuple(key, hostile))
).map(([since, extra]) => write(object(...member("since", since), ...extra)))

const instant: fc.Arbitrary<Json> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom<Json>("2020-01-01T00:00:00Z", "2027-08-20T10:00:00+02:00", "2027-08-20", "2027-02-30T10:00:00Z",
    "2020-01-01T25:00:00Z", "9999-12-31T23:59:59Z", "0000-01-01T00:00:00Z", "0001-01-01T00:00:00+05:00",
    "9999-12-31T23:00:00-05:00", "+275760-09-13T00:00:00Z", "2020-01-01T00:00:00", null) },
  fc.date({ noInvalidDate: true }).map((d): Json => d.toISOString()),
  hostile
)

/** `PATCH /admin/engagements/{id}`: `{ contact_email? }`. */
export const engagementPatchBody: fc.Arbitrary<string> = fc.tuple(
  fc.option(fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom<Json>("manager@example.org", null, "not an address", "a@b", "@example.org",
      `${"x".repeat(250)}@example.org`, "ünï@exämple.org") },
    hostile
  ), { nil: undefined, freq: 8 }),
  fewOrNone(fc.tuple(key, hostile))
).map(([email, extra]) => write(object(...member("contact_email", email), ...extra)))

/** `POST /admin/engagements/{id}/portal-link`: `{ send_to? }` (often no body at all). */
export const portalLinkBody: fc.Arbitrary<string> = fc.tuple(
  fc.option(fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom<Json>("manager@example.org", null, "not an address", "a@b", "@example.org",
      "x@example.org\r\nBcc: y@example.org", `${"x".repeat(250)}@example.org`, "ünï@exämple.org") },
    hostile
  ), { nil: undefined, freq: 8 }),
  fewOrNone(fc.tuple(key, hostile))
).map(([to, extra]) => write(object(...member("send_to", to), ...extra)))

/** `PATCH /admin/engagements/{id}/sections/{section_id}`: `{ due_at?, locks_at?, locked? }`. */
export const sectionScheduleBody: fc.Arbitrary<string> = fc.tuple(
  fc.option(instant, { nil: undefined, freq: 3 }),
  fc.option(instant, { nil: undefined, freq: 3 }),
  fc.option(fc.oneof({ weight: 3, arbitrary: fc.constantFrom<Json>(true, false, null) }, hostile), { nil: undefined, freq: 3 }),
  fewOrNone(fc.tuple(key, hostile))
).map(([due, locks, locked, extra]) =>
  write(object(...member("due_at", due), ...member("locks_at", locks), ...member("locked", locked), ...extra)))

/** `If-Match` on forms: the current revision (unknown: a few), any (`*`), weak, unquoted, lists, junk. */
export const ifMatch: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 3, arbitrary: fc.constant("*") },
  { weight: 2, arbitrary: fc.constant(undefined) },
  fc.integer({ min: 1, max: 40 }).map((n) => `"${n}"`),
  fc.constantFrom("W/\"1\"", "1", "\"\"", "\"0\"", "\"-1\"", "\"1.5\"", "\"99999999999999999999999\"", "\"1\", \"2\"", "*, \"1\"",
    "\"abc\"", "\" 1\"", "\"9007199254740993\"", "\"1e3\"", "\"0x10\""),
  fc.string({ unit: "grapheme-ascii", maxLength: 30 }).map((s) => s.trim())
)
