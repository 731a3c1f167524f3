import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { backends, reportSkippedPostgres } from "./backends.js"
import { call, dataOf, envelope, liveOptions, type RawResponse, testServer } from "./harness.js"

const portal = "/p/artist/test-portal-token-0001"
const gone = "/p/artist/test-portal-gone-0001"
const portalNotFound = envelope("PORTAL_NOT_FOUND", "No portal has this token.")
const artistGone = envelope("ARTIST_GONE", "The artist of this portal no longer exists.")
const sectionNotFound = envelope("SECTION_NOT_FOUND", "This portal has no such section.")
const rateLimited = envelope("RATE_LIMITED", "Too many requests. Try again later.")
const failed = (fields: unknown) => envelope("VALIDATION_FAILED", "One or more values are invalid.", fields)
const required = { rule: "required", message: "This field is required." }

// TRUST_PROXY_HOPS=1: each test is its own client through X-Forwarded-For, with its own budget.
const as = (ip: string, init: { method?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {}) => ({
  ...init,
  headers: { ...init.headers, "x-forwarded-for": ip }
})
const post = (ip: string, body?: unknown) => as(ip, body === undefined ? { method: "POST" } : { method: "POST", body })

const field = (slug: string, label: string, type: string, isRequired: boolean, position: number, rules: unknown = null) => ({
  slug, label, type, is_required: isRequired, options: null, validation_rules: rules, is_unique: false, position, visible_if: null, help: null
})
const travelFields = [
  field("arrival", "Arrival date", "date", true, 1),
  field("travel_notes", "Travel notes", "textarea", false, 2)
]
const hospitalityFields = [
  field("dietary", "Dietary wishes", "text", true, 1),
  field("guests", "Guests", "numeric", false, 2, { min: 0, max: 10 })
]
const sectionBytes = (id: string, name: string, submittedAt: string | null, fields: unknown, values: unknown) =>
  JSON.stringify({
    data: {
      section: { id, name, status: submittedAt === null ? "pending" : "submitted", submitted_at: submittedAt },
      fields,
      values
    }
  })

const submittedAtOf = (response: RawResponse): string => String((dataOf(response)["section"] as Record<string, unknown>)["submitted_at"])

for (const backend of backends) {
  layer(testServer(backend, { TRUST_PROXY_HOPS: "1" }), liveOptions)(`artist portal (${backend})`, (it) => {
    describe("summary and sections", () => {
      it.effect("the summary: engagement, artist, sections by position; a case-mismatched name is not available", () =>
        Effect.gen(function*() {
          const res = yield* call(portal, as("192.0.2.1"))
          assert.strictEqual(res.status, 200)
          const pending = (id: string, name: string, available: boolean) =>
            ({ id, name, status: "pending", submitted_at: null, available, locked: false, due_at: null, locks_at: null, overdue: false })
          assert.strictEqual(res.text, JSON.stringify({
            data: {
              engagement: { id: "eng-1", event: { id: "ev-u", name: "Other festival" } },
              artist: { id: "ma-1", name: "The Testers" },
              sections: [pending("as-travel", "Travel", true), pending("as-hosp", "Hospitality", true), pending("as-lower", "travel", false)]
            }
          }))
          assert.strictEqual(res.headers.get("ratelimit-policy"), `"portal";q=30;w=60`)
          assert.match(res.headers.get("ratelimit") ?? "", /^"portal";r=29;t=(59|60)$/)
        }))

      it.effect("a mapped section answers its public fields and {} before any submit", () =>
        Effect.gen(function*() {
          const res = yield* call(`${portal}/sections/as-travel`, as("192.0.2.2"))
          assert.strictEqual(res.status, 200)
          assert.strictEqual(res.text, sectionBytes("as-travel", "Travel", null, travelFields, {}))
          assert.notInclude(res.text, "maps_to")
        }))

      it.effect("`travel` does not map to `Travel`: 404 SECTION_NOT_FOUND, after the limit (RateLimit fields)", () =>
        Effect.gen(function*() {
          for (const id of ["as-lower", "as-nope", "as-gone-travel"]) {
            const get = yield* call(`${portal}/sections/${id}`, as("192.0.2.3"))
            assert.strictEqual(get.status, 404, id)
            assert.strictEqual(get.text, sectionNotFound)
            assert.match(get.headers.get("ratelimit") ?? "", /^"portal";r=\d+;t=\d+$/)
            const submit = yield* call(`${portal}/sections/${id}`, post("192.0.2.3", { values: { arrival: "2027-08-19" } }))
            assert.strictEqual(submit.text, sectionNotFound)
          }
        }))

      it.effect("an unknown token is 404 PORTAL_NOT_FOUND, a deleted artist 410 ARTIST_GONE, both without RateLimit fields", () =>
        Effect.gen(function*() {
          for (const [path, bytes, status] of [["/p/artist/test-portal-nope-0001", portalNotFound, 404], [gone, artistGone, 410]] as const) {
            for (const res of [
              yield* call(path, as("192.0.2.4")),
              yield* call(`${path}/sections/as-gone-travel`, as("192.0.2.4")),
              yield* call(`${path}/sections/as-gone-travel`, post("192.0.2.4", { values: { arrival: "2027-08-19" } }))
            ]) {
              assert.strictEqual(res.status, status, path)
              assert.strictEqual(res.text, bytes)
              assert.isNull(res.headers.get("ratelimit"))
            }
          }
        }))
    })

    describe("section submit", () => {
      it.effect("submit, then GET shows the values; a repeat submit updates them and moves submitted_at", () =>
        Effect.gen(function*() {
          const ip = "192.0.2.10"
          const first = yield* call(`${portal}/sections/as-travel`, post(ip, { values: { arrival: "2027-08-19", dietary: "ignored" } }))
          assert.strictEqual(first.status, 200)
          const at = submittedAtOf(first)
          assert.match(at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
          assert.strictEqual(first.text, sectionBytes("as-travel", "Travel", at, travelFields, { arrival: "2027-08-19" }))
          const read = yield* call(`${portal}/sections/as-travel`, as(ip))
          assert.strictEqual(read.text, first.text)
          const summary = dataOf(yield* call(portal, as(ip)))["sections"] as ReadonlyArray<Record<string, unknown>>
          assert.deepStrictEqual(summary[0], { id: "as-travel", name: "Travel", status: "submitted", submitted_at: at, available: true, locked: false, due_at: null, locks_at: null, overdue: false })
          assert.strictEqual(summary[1]?.["status"], "pending")
          yield* Effect.sleep("20 millis")
          // An empty POST passes: the required value was submitted before.
          const again = yield* call(`${portal}/sections/as-travel`, post(ip))
          assert.strictEqual(again.status, 200)
          const later = yield* call(`${portal}/sections/as-travel`, post(ip, { values: { travel_notes: "by train" } }))
          const movedAt = submittedAtOf(later)
          assert.isTrue(movedAt > at, `${movedAt} > ${at}`)
          assert.strictEqual(
            (yield* call(`${portal}/sections/as-travel`, as(ip))).text,
            sectionBytes("as-travel", "Travel", movedAt, travelFields, { arrival: "2027-08-19", travel_notes: "by train" })
          )
        }))

      it.effect("20 rounds of two parallel POSTs to one section, each of another field: both 200, no value lost", () =>
        Effect.gen(function*() {
          const race = "/p/artist/test-portal-race-0001/sections/as-race-travel"
          assert.strictEqual((yield* call(race, post("192.0.2.40", { values: { arrival: "2027-08-01" } }))).status, 200)
          for (let round = 0; round < 20; round++) {
            // A client per round: 41 POSTs stay under the portal limit of any one client.
            const ip = `198.51.100.${round + 1}`
            const arrival = `2027-08-${String(round + 2).padStart(2, "0")}`
            const [a, b] = yield* Effect.all([
              call(race, post(ip, { values: { arrival } })),
              call(race, post(ip, { values: { travel_notes: `round ${round}` } }))
            ], { concurrency: "unbounded" })
            assert.deepStrictEqual([a.status, b.status], [200, 200], `round ${round}`)
            const read = yield* call(race, as(ip))
            assert.deepStrictEqual(dataOf(read)["values"], { arrival, travel_notes: `round ${round}` }, `round ${round}`)
          }
        }))

      it.effect("a missing required value is 422 and writes nothing: GET after shows the old values", () =>
        Effect.gen(function*() {
          const ip = "192.0.2.11"
          const section = `${portal}/sections/as-hosp`
          const none = yield* call(section, post(ip, { values: { guests: 2 } }))
          assert.strictEqual(none.status, 422)
          assert.strictEqual(none.text, failed({ dietary: [required] }))
          assert.match(none.headers.get("ratelimit") ?? "", /^"portal";r=\d+;t=\d+$/)
          assert.strictEqual((yield* call(section, as(ip))).text, sectionBytes("as-hosp", "Hospitality", null, hospitalityFields, {}))
          const ok = yield* call(section, post(ip, { values: { dietary: "vegan", guests: 2 } }))
          assert.strictEqual(ok.status, 200)
          const blanked = yield* call(section, post(ip, { values: { dietary: "  ", guests: 11 } }))
          assert.strictEqual(blanked.text, failed({
            dietary: [required],
            guests: [{ rule: "max", message: "Must be at most 10." }]
          }))
          assert.strictEqual((yield* call(section, as(ip))).text, ok.text)
        }))

      it.effect("request shape first: 415, 400 and 422 on a known token, without RateLimit fields", () =>
        Effect.gen(function*() {
          const section = `${portal}/sections/as-hosp`
          const media = yield* call(section, as("192.0.2.12", { method: "POST", raw: "{}", headers: { "content-type": "text/plain" } }))
          assert.strictEqual(media.status, 415)
          const malformed = yield* call(section, as("192.0.2.12", { method: "POST", raw: "{\"values\":" }))
          assert.strictEqual(malformed.text, envelope("MALFORMED_JSON", "The request body must be a JSON object."))
          const shape = yield* call(section, post("192.0.2.12", { values: ["vegan"] }))
          assert.strictEqual(shape.text, failed({ values: [{ rule: "invalid", message: "Must be an object mapping field slugs to values." }] }))
          for (const res of [media, malformed, shape]) assert.isNull(res.headers.get("ratelimit"))
        }))
    })

    describe("rate limit", () => {
      it.effect("30 portal requests a minute pass, the 31st is 429; 404, 410 and request-shape errors do not count", () =>
        Effect.gen(function*() {
          const ip = "192.0.2.20"
          for (let i = 0; i < 35; i++) {
            assert.strictEqual((yield* call(gone, as(ip))).status, 410)
            assert.strictEqual((yield* call("/p/artist/test-portal-nope-0001", as(ip))).status, 404)
          }
          for (let i = 0; i < 5; i++) {
            const res = yield* call(`${portal}/sections/as-hosp`, as(ip, { method: "POST", raw: "{" }))
            assert.strictEqual(res.status, 400)
          }
          // 200, 404 SECTION_NOT_FOUND and a rule 422 all count.
          const route = (i: number) =>
            i % 4 === 0
              ? call(portal, as(ip))
              : i % 4 === 1
              ? call(`${portal}/sections/as-travel`, as(ip))
              : i % 4 === 2
              ? call(`${portal}/sections/as-lower`, as(ip))
              : call(`${portal}/sections/as-hosp`, post(ip, { values: { dietary: "" } }))
          const answers: Array<RawResponse> = []
          for (let i = 0; i < 30; i++) answers.push(yield* route(i))
          assert.deepStrictEqual([...new Set(answers.map((r) => r.status))].sort(), [200, 404, 422])
          assert.deepStrictEqual(
            answers.map((r) => /r=(\d+)/.exec(r.headers.get("ratelimit") ?? "")?.[1]),
            Array.from({ length: 30 }, (_, i) => String(29 - i))
          )
          const limited = yield* call(`${portal}/sections/as-travel`, as(ip))
          assert.strictEqual(limited.status, 429)
          assert.strictEqual(limited.text, rateLimited)
          const retryAfter = Number(limited.headers.get("retry-after"))
          assert.isTrue(retryAfter >= 1 && retryAfter <= 60, String(retryAfter))
          assert.strictEqual(limited.headers.get("ratelimit-policy"), `"portal";q=30;w=60`)
          assert.strictEqual(limited.headers.get("ratelimit"), `"portal";r=0;t=${retryAfter}`)
          // Every route shares the budget; a refused request does not count; another client still passes.
          assert.strictEqual((yield* call(portal, as(ip))).status, 429)
          assert.strictEqual((yield* call(`${portal}/sections/as-hosp`, post(ip, { values: {} }))).status, 429)
          assert.strictEqual((yield* call(portal, as("192.0.2.21"))).status, 200)
        }))
    })
  })
}

reportSkippedPostgres("artist portal")
