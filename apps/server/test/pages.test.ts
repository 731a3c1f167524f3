import { assert, describe, it as plain, layer } from "@effect/vitest"
import { Effect, Result } from "effect"
import { parseConfig } from "../src/index.js"
import { keyOf } from "./adminSupport.js"
import { backends, reportSkippedPostgres } from "./backends.js"
import { call, liveOptions, testServer } from "./harness.js"

const adminOrigin = "https://admin.example.org"
const csp = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'"
const exposed = "x-request-id, Retry-After, RateLimit, RateLimit-Policy"
const fromSite = { origin: "https://festival.example.com" }

const assertPageHeaders = (headers: Headers) => {
  assert.strictEqual(headers.get("content-type"), "text/html; charset=utf-8")
  assert.strictEqual(headers.get("content-security-policy"), csp)
  assert.notInclude(headers.get("content-security-policy") ?? "", "unsafe")
  assert.strictEqual(headers.get("referrer-policy"), "no-referrer")
}

for (const backend of backends) {
  layer(testServer(backend, { ADMIN_CORS_ORIGINS: `${adminOrigin}, http://localhost:5173` }), liveOptions)(
    `pages, element and CORS (${backend})`,
    (it) => {
      describe("pages", () => {
        it.effect("/f/{token} is an HTML shell around <forms-embed>, loading only /embed.js of this origin", () =>
          Effect.gen(function*() {
            const res = yield* call("/f/test-open-token-0001")
            assert.strictEqual(res.status, 200)
            assertPageHeaders(res.headers)
            assert.include(res.text, `<forms-embed token="test-open-token-0001" lang="en" data-page></forms-embed>`)
            assert.match(res.text, /<script type="module" src="\/embed\.js\?v=[\w-]+"><\/script>/)
            assert.include(res.text, `<link rel="icon" href="/favicon.ico" type="image/svg+xml">`)
            assert.notMatch(res.text, /https?:\/\//)
            assert.notMatch(res.text, /<script>|style=/)
          }))

        it.effect("/f/{token} answers a 404 page for every token §3 refuses (unknown, draft, artist advance)", () =>
          Effect.gen(function*() {
            for (const token of ["no-such-token-0000", "test-draft-token-0001", "test-advance-token-0001"]) {
              const res = yield* call(`/f/${token}`)
              assert.strictEqual(res.status, 404, token)
              assertPageHeaders(res.headers)
              assert.include(res.text, "<h1>Form not found</h1>")
              assert.notInclude(res.text, "<script")
            }
          }))

        it.effect("a page's token that names nothing routable (a NUL, a byte that does not decode) gets the 404 page too", () =>
          Effect.gen(function*() {
            for (const [path, title] of [["/f/%00", "Form not found"], ["/portal/%00", "Portal not found"], ["/portal/%E0%A4%A", "Portal not found"], ["/F/%ED%A0%80", "Form not found"]] as const) {
              const res = yield* call(path)
              assert.strictEqual(res.status, 404, path)
              assertPageHeaders(res.headers)
              assert.include(res.text, `<h1>${title}</h1>`, path)
            }
            // The API's routes keep the envelope.
            const api = yield* call("/public/forms/%00")
            assert.strictEqual(api.status, 404)
            assert.match(api.headers.get("content-type") ?? "", /^application\/json/)
          }))

        it.effect("a token with markup never becomes markup in a page", () =>
          Effect.gen(function*() {
            const res = yield* call(`/f/${encodeURIComponent("<img src=x onerror=alert(1)>")}`)
            assert.strictEqual(res.status, 404)
            assert.notInclude(res.text, "<img")
          }))

        it.effect("/portal/{token}: 200 shell around <forms-portal>, 410 for a gone artist, 404 for an unknown token", () =>
          Effect.gen(function*() {
            const ok = yield* call("/portal/test-portal-token-0001", { headers: { "x-forwarded-for": "198.51.100.7" } })
            assert.strictEqual(ok.status, 200)
            assertPageHeaders(ok.headers)
            assert.include(ok.text, `<forms-portal token="test-portal-token-0001" lang="en" data-page></forms-portal>`)
            const gone = yield* call("/portal/test-portal-gone-0001")
            assert.strictEqual(gone.status, 410)
            assertPageHeaders(gone.headers)
            assert.include(gone.text, "No longer available")
            const unknown = yield* call("/portal/no-such-portal-0000")
            assert.strictEqual(unknown.status, 404)
            assert.include(unknown.text, "<h1>Portal not found</h1>")
          }))

        it.effect("/portal/{token} counts nothing of the portal limit (it is not one of its three routes)", () =>
          Effect.gen(function*() {
            const client = { "x-forwarded-for": "198.51.100.31" }
            for (let i = 0; i < 31; i++) assert.strictEqual((yield* call("/portal/test-portal-token-0001", { headers: client })).status, 200)
            const summary = yield* call("/p/artist/test-portal-token-0001", { headers: client })
            assert.strictEqual(summary.status, 200)
            assert.strictEqual(summary.headers.get("ratelimit"), "\"portal\";r=29;t=60")
          }))
      })

      describe("/favicon.ico", () => {
        it.effect("the site's icon, an SVG under the pages' policy, with an ETag; a matching If-None-Match answers 304", () =>
          Effect.gen(function*() {
            const res = yield* call("/favicon.ico")
            assert.strictEqual(res.status, 200)
            assert.strictEqual(res.headers.get("content-type"), "image/svg+xml")
            assert.strictEqual(res.headers.get("content-security-policy"), csp)
            assert.strictEqual(res.headers.get("x-content-type-options"), "nosniff")
            assert.strictEqual(res.headers.get("cache-control"), "no-cache")
            assert.match(res.text, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*>.*<\/svg>\n$/s)
            assert.notInclude(res.text, "<script")
            const etag = res.headers.get("etag") ?? ""
            assert.match(etag, /^"[\w-]{32}"$/)
            const again = yield* call("/favicon.ico", { headers: { "if-none-match": etag } })
            assert.deepStrictEqual([again.status, again.text, again.headers.get("etag")], [304, "", etag])
            const head = yield* call("/favicon.ico", { method: "HEAD" })
            assert.deepStrictEqual([head.status, head.headers.get("etag")], [200, etag])
          }))
      })

      describe("/embed.js", () => {
        it.effect("an ES module with an ETag; a matching If-None-Match answers 304 without a body", () =>
          Effect.gen(function*() {
            const res = yield* call("/embed.js", { headers: fromSite })
            assert.strictEqual(res.status, 200)
            assert.strictEqual(res.headers.get("content-type"), "text/javascript; charset=utf-8")
            // Scripts carry the pages' policy too (CONTRACT §14).
            assert.strictEqual(res.headers.get("content-security-policy"), csp)
            assert.strictEqual(res.headers.get("referrer-policy"), "no-referrer")
            assert.include(res.text, "forms-embed")
            assert.include(res.text, "forms-portal")
            assert.strictEqual(res.headers.get("access-control-allow-origin"), "*")
            const etag = res.headers.get("etag") ?? ""
            assert.match(etag, /^"[\w-]{16,}"$/)
            const again = yield* call("/embed.js", { headers: { ...fromSite, "if-none-match": etag } })
            assert.strictEqual(again.status, 304)
            assert.strictEqual(again.text, "")
            assert.strictEqual(again.headers.get("etag"), etag)
            assert.strictEqual(again.headers.get("access-control-allow-origin"), "*")
            const other = yield* call("/embed.js", { headers: { "if-none-match": "\"something-else-entirely\"" } })
            assert.strictEqual(other.status, 200)
          }))

        it.effect("the page names the script by its content hash (a new build is a new URL)", () =>
          Effect.gen(function*() {
            const page = yield* call("/f/test-open-token-0001")
            const script = yield* call("/embed.js")
            const version = /\/embed\.js\?v=([\w-]+)/.exec(page.text)?.[1] ?? "none"
            assert.include(script.headers.get("etag") ?? "", version)
          }))
      })

      describe("CORS on the public and portal routes", () => {
        it.effect("every answer, errors included, carries Access-Control-Allow-Origin: * and the exposed headers", () =>
          Effect.gen(function*() {
            const answers = [
              yield* call("/public/forms/test-open-token-0001", { headers: fromSite }),
              yield* call("/public/forms/no-such-token-0000", { headers: fromSite }),
              yield* call("/public/forms/test-open-token-0001/submissions", { method: "POST", raw: "{", headers: fromSite }),
              yield* call("/public/forms/test-open-token-0001/submissions", {
                method: "POST",
                raw: "x",
                headers: { ...fromSite, "content-type": "text/plain" }
              }),
              yield* call("/public/forms/test-open-token-0001", { method: "DELETE", headers: fromSite }),
              yield* call("/p/artist/no-such-portal-0000", { headers: fromSite }),
              yield* call("/p/artist/test-portal-gone-0001/sections/x", { headers: fromSite })
            ]
            assert.deepStrictEqual(answers.map((r) => r.status), [200, 404, 400, 415, 405, 404, 410])
            for (const res of answers) {
              assert.strictEqual(res.headers.get("access-control-allow-origin"), "*")
              assert.strictEqual(res.headers.get("access-control-expose-headers"), exposed)
              assert.isNull(res.headers.get("access-control-allow-credentials"))
            }
          }))

        it.effect("a preflight answers 204 with the route's methods and content-type, x-request-id", () =>
          Effect.gen(function*() {
            const preflight = (path: string, method: string) =>
              call(path, {
                method: "OPTIONS",
                headers: { ...fromSite, "access-control-request-method": method, "access-control-request-headers": "content-type" }
              })
            const cases: ReadonlyArray<readonly [string, string, string]> = [
              ["/public/forms/t/submissions", "POST", "POST, OPTIONS"],
              ["/public/forms/t/submissions/s", "PUT", "PUT, OPTIONS"],
              ["/public/forms/t/submissions/s/submit", "POST", "POST, OPTIONS"],
              ["/public/forms/t", "GET", "GET, HEAD, OPTIONS"],
              ["/p/artist/t/sections/s", "PUT", "GET, HEAD, POST, PUT, OPTIONS"],
              ["/embed.js", "GET", "GET, HEAD, OPTIONS"]
            ]
            for (const [path, method, allowed] of cases) {
              const res = yield* preflight(path, method)
              assert.strictEqual(res.status, 204, path)
              assert.strictEqual(res.text, "")
              assert.strictEqual(res.headers.get("access-control-allow-origin"), "*")
              assert.strictEqual(res.headers.get("access-control-allow-methods"), allowed, path)
              assert.strictEqual(res.headers.get("access-control-allow-headers"), "content-type, x-request-id")
              assert.isNotNull(res.headers.get("x-request-id"))
            }
          }))
      })

      describe("CORS on organiser routes: only ADMIN_CORS_ORIGINS", () => {
        it.effect("a listed origin's preflight is answered before authentication, allowing authorization and if-match", () =>
          Effect.gen(function*() {
            const res = yield* call("/admin/forms/fs-1", {
              method: "OPTIONS",
              headers: { origin: adminOrigin, "access-control-request-method": "PUT", "access-control-request-headers": "authorization, if-match" }
            })
            assert.strictEqual(res.status, 204)
            assert.strictEqual(res.headers.get("access-control-allow-origin"), adminOrigin)
            assert.strictEqual(res.headers.get("access-control-allow-headers"), "authorization, if-match, content-type, x-request-id")
            assert.include(res.headers.get("access-control-allow-methods") ?? "", "PUT")
            assert.strictEqual(res.headers.get("vary"), "Origin")
            const answer = yield* call("/admin/forms", { headers: { origin: adminOrigin } })
            assert.strictEqual(answer.headers.get("access-control-allow-origin"), adminOrigin)
            assert.strictEqual(answer.headers.get("access-control-expose-headers"), exposed)
          }))

        it.effect("an unlisted origin gets no CORS header at all, on preflight or answer", () =>
          Effect.gen(function*() {
            for (const origin of ["https://evil.example.net", "https://admin.example.org.evil.net"]) {
              const res = yield* call("/admin/forms", {
                method: "OPTIONS",
                headers: { origin, "access-control-request-method": "GET" }
              })
              assert.notStrictEqual(res.status, 204)
              assert.isNull(res.headers.get("access-control-allow-origin"))
              const answer = yield* call("/admin/forms", { headers: { origin } })
              assert.isNull(answer.headers.get("access-control-allow-origin"))
            }
          }))

        it.effect("every organiser answer carries Vary: Origin: a listed origin, an unlisted one, none; preflight, answer, error", () =>
          Effect.gen(function*() {
            const origins = [{ origin: adminOrigin }, { origin: "https://evil.example.net" }, {}]
            for (const origin of origins) {
              const answers = {
                preflight: yield* call("/admin/forms", { method: "OPTIONS", headers: { ...origin, "access-control-request-method": "GET" } }),
                unauthenticated: yield* call("/admin/forms", { headers: origin }),
                unknownRoute: yield* call("/admin/nowhere", { headers: origin }),
                wrongMethod: yield* call("/admin/organisation", { method: "DELETE", headers: origin })
              }
              const varies = Object.entries(answers).map(([name, res]) => [name, res.headers.get("vary")])
              assert.deepStrictEqual(varies, Object.keys(answers).map((name) => [name, "Origin"]), JSON.stringify(origin))
            }
            const { key } = yield* keyOf("org-t")
            const authorised = yield* call("/admin/organisation", { headers: { authorization: `Bearer ${key}`, origin: "https://evil.example.net" } })
            assert.deepStrictEqual([authorised.status, authorised.headers.get("vary")], [200, "Origin"])
            // The answer of a route open to every origin (`*`) does not depend on Origin.
            assert.isNull((yield* call("/health/live", { headers: fromSite })).headers.get("vary"))
          }))

        it.effect("routes outside CONTRACT §14's list get no CORS header", () =>
          Effect.gen(function*() {
            const res = yield* call("/health/live", { headers: fromSite })
            assert.isNull(res.headers.get("access-control-allow-origin"))
          }))
      })
    }
  )
}
reportSkippedPostgres("pages, element and CORS")

describe("ADMIN_CORS_ORIGINS", () => {
  plain("takes comma-separated origins and refuses anything that is not an origin, naming the variable", () => {
    const ok = parseConfig({ ADMIN_CORS_ORIGINS: "https://a.example.org, http://localhost:5173/" })
    assert.isTrue(Result.isSuccess(ok))
    if (Result.isSuccess(ok)) assert.deepStrictEqual(ok.success.adminCorsOrigins, ["https://a.example.org", "http://localhost:5173"])
    const empty = parseConfig({})
    if (Result.isSuccess(empty)) assert.deepStrictEqual(empty.success.adminCorsOrigins, [])
    const bad = parseConfig({ ADMIN_CORS_ORIGINS: "https://a.example.org/admin,*" })
    assert.isTrue(Result.isFailure(bad))
    if (Result.isFailure(bad)) {
      assert.strictEqual(bad.failure.length, 2)
      for (const problem of bad.failure) assert.match(problem, /^ADMIN_CORS_ORIGINS: /)
    }
  })
})
