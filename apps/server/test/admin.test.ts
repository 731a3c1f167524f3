import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { describe, expect, it as plainIt } from "vitest"
import { OrganiserAccess } from "@forms/domain"
import { backends, reportSkippedPostgres } from "./backends.js"
import { adminCall, bearer, data, json, keyOf, list } from "./adminSupport.js"
import { call, envelope, liveOptions, testServer } from "./harness.js"
import {
  bodyFor,
  definedOrganiserRoutes,
  definitionWithNewRoute,
  freshIds,
  notFoundCode,
  organiserRoutes,
  organiserRoutesOf,
  tableProblems,
  unknownIds
} from "./organiserRoutes.js"

const unauthenticated = envelope("UNAUTHENTICATED", "A valid API key is required.")

describe("the two-organisation table", () => {
  plainIt("has a case for every organiser route of the API definition, and for nothing else", () => {
    expect(tableProblems(organiserRoutes, definedOrganiserRoutes())).toEqual([])
  })

  plainIt("names an organiser route added to the definition without a case", () => {
    expect(tableProblems(organiserRoutes, organiserRoutesOf(definitionWithNewRoute())))
      .toEqual(["GET /admin/things: no two-organisation case"])
  })
})

for (const backend of backends) {
  layer(testServer(backend), liveOptions)(`organiser routes (${backend})`, (it) => {
    it.effect("every path or body id of the table is checked", () =>
      Effect.sync(() => {
        for (const route of organiserRoutes) {
          if (route.template.includes(":")) assert.isDefined(route.kind, `${route.method} ${route.template} names no kind`)
          // A body member naming a resource is checked for scoping too.
          const body = bodyFor(route, unknownIds)
          const idMembers = typeof body === "object" && body !== null ? Object.keys(body).filter((k) => k.endsWith("_id")) : []
          assert.deepStrictEqual(idMembers, [...(route.references ?? [])], `${route.method} ${route.template} references`)
        }
      }))

    it.effect("every route: its success shape and the admin RateLimit headers", () =>
      Effect.gen(function*() {
        const a = yield* keyOf("org-t")
        for (const route of organiserRoutes) {
          const ids = yield* freshIds(a.key)
          const res = yield* adminCall(a.key, route.method, route.path(ids), bodyFor(route, ids), route.headers)
          const what = `${route.method} ${route.template}: ${res.text}`
          assert.strictEqual(res.status, route.status, what)
          assert.strictEqual(res.headers.get("ratelimit-policy"), "\"admin\";q=600;w=60", what)
          assert.match(res.headers.get("ratelimit") ?? "", /^"admin";r=\d+;t=\d+$/, what)
          if (route.status === 204) {
            assert.strictEqual(res.text, "", what)
            continue
          }
          if (route.raw === true) {
            // The export's CSV, or the download's bytes as stored
            assert.match(res.headers.get("content-type") ?? "", /^(text\/csv|application\/octet-stream$)/, what)
            continue
          }
          const body = json(res)
          if (route.isList) {
            assert.deepStrictEqual(Object.keys(body).sort(), ["data", "next_cursor"], what)
            const items = list(res)
            assert.isAbove(items.length, 0, what)
            for (const item of items) assert.deepStrictEqual(Object.keys(item).sort(), route.members, what)
          } else {
            assert.deepStrictEqual(Object.keys(body), ["data"], what)
            assert.deepStrictEqual(Object.keys(data(res)).sort(), route.members, what)
          }
        }
      }))

    it.effect("every route with a body: a lone surrogate in any of its strings → 422 invalid at that member's path, nothing stored", () =>
      Effect.gen(function*() {
        const a = yield* keyOf("org-t")
        /** Every string of `value` with its dotted path, and a copy of `value` with that one string broken. */
        const strings = (value: unknown, path: string): ReadonlyArray<{ path: string; broken: (root: unknown) => unknown }> => {
          if (typeof value === "string") return [{ path, broken: () => `${value}\ud800` }]
          if (typeof value !== "object" || value === null) return []
          const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value)
          return entries.flatMap(([key, v]) =>
            strings(v, path === "" ? key : `${path}.${key}`).map((leaf) => ({
              path: leaf.path,
              broken: (root: unknown) => {
                const copy = structuredClone(root) as Record<string, unknown>
                let node: Record<string, unknown> = copy
                const parts = leaf.path.split(".")
                for (const part of parts.slice(0, -1)) node = node[part] as Record<string, unknown>
                const last = parts.at(-1) ?? ""
                node[last] = `${String(node[last])}\ud800`
                return copy
              }
            })))
        }
        let checked = 0
        for (const route of organiserRoutes) {
          const ids = yield* freshIds(a.key)
          const body = bodyFor(route, ids)
          for (const leaf of strings(body, "")) {
            checked++
            const res = yield* adminCall(a.key, route.method, route.path(ids), leaf.broken(body), route.headers)
            const what = `${route.method} ${route.template} ${leaf.path}: ${res.text}`
            assert.strictEqual(res.status, 422, what)
            const fields = (json(res)["error"] as { fields: Record<string, ReadonlyArray<{ rule: string; message: string }>> }).fields
            assert.deepStrictEqual(fields[leaf.path], [
              { rule: "invalid", message: "A string without U+0000 or unpaired surrogates is expected." }
            ], what)
          }
        }
        // names of events, slots, sections, artists, advance sections, forms; webhook urls and descriptions; …
        assert.isAbove(checked, 20)
        const events = list(yield* adminCall(a.key, "GET", "/admin/events"))
        assert.isFalse(events.some((e) => String(e["name"]).includes("\ufffd")))
      }))

    it.effect("every route: 401 UNAUTHENTICATED with WWW-Authenticate for a missing, malformed, unknown or revoked key", () =>
      Effect.gen(function*() {
        const a = yield* keyOf("org-t")
        const revoked = yield* keyOf("org-t")
        yield* (yield* OrganiserAccess).revokeApiKey(revoked.id, Date.now())
        const ids = yield* freshIds(a.key)
        const headerSets: ReadonlyArray<Record<string, string>> = [
          {},
          { authorization: "Bearer short" },
          { authorization: `Basic ${Buffer.from("a:b").toString("base64")}` },
          { authorization: `Bearer fok_${"x".repeat(43)}` },
          { authorization: `Bearer ${"é".repeat(40)}` },
          bearer(revoked.key)
        ]
        for (const route of organiserRoutes) {
          for (const headers of headerSets) {
            // A bad key and a bad body: the key is checked first.
            const withBody = route.method !== "GET"
            const res = yield* call(route.path(ids), {
              method: route.method,
              headers: withBody ? { ...headers, "content-type": "application/json" } : headers,
              ...(withBody ? { raw: "{not json" } : {})
            })
            const what = `${route.method} ${route.template} with ${JSON.stringify(headers)}`
            assert.strictEqual(res.status, 401, what)
            assert.strictEqual(res.text, unauthenticated, what)
            assert.strictEqual(res.headers.get("www-authenticate"), "Bearer", what)
          }
        }
        // Nothing was written for any of them.
        assert.strictEqual((yield* adminCall(a.key, "GET", `/admin/events/${ids.event}`)).status, 200)
      }))

    it.effect("every route with an id: an id of another organisation answers exactly as an unknown one", () =>
      Effect.gen(function*() {
        const a = yield* keyOf("org-t")
        const b = yield* keyOf("org-u")
        const theirs = yield* freshIds(b.key)
        const mineIds = yield* freshIds(a.key)
        for (const route of organiserRoutes) {
          const what = `${route.method} ${route.template}`
          if (route.references !== undefined) {
            // Ids in the body: each of another organisation answers 422 `in`, exactly as an unknown one.
            for (const member of route.references) {
              const body = bodyFor(route, mineIds) as Record<string, unknown>
              const foreignId = bodyFor(route, theirs) as Record<string, unknown>
              const foreign = yield* adminCall(a.key, route.method, route.path(mineIds), { ...body, [member]: foreignId[member] }, route.headers)
              const unknown = yield* adminCall(a.key, route.method, route.path(mineIds), { ...body, [member]: "nope" }, route.headers)
              assert.strictEqual(foreign.status, 422, `${what} ${member}: ${foreign.text}`)
              const error = json(foreign)["error"] as Record<string, unknown>
              assert.deepStrictEqual(Object.keys(error["fields"] as object), [member], what)
              assert.strictEqual(((error["fields"] as Record<string, ReadonlyArray<Record<string, unknown>>>)[member] ?? [])[0]?.["rule"], "in", what)
              assert.strictEqual(foreign.text, unknown.text, `${what} ${member}`)
            }
          }
          if (route.kind === undefined) continue
          const code = notFoundCode[route.kind]
          const foreign = yield* adminCall(a.key, route.method, route.path(theirs), bodyFor(route, mineIds), route.headers)
          const unknown = yield* adminCall(a.key, route.method, route.path(unknownIds), bodyFor(route, mineIds), route.headers)
          assert.strictEqual(foreign.status, 404, what)
          assert.strictEqual(json(foreign)["error"] && (json(foreign)["error"] as Record<string, unknown>)["code"], code, what)
          assert.strictEqual(foreign.text, unknown.text, what)
        }
        // Theirs are untouched, and A's lists never show them.
        for (const path of [`/admin/events/${theirs.event}`, `/admin/events/${theirs.holder}/time-slots`]) {
          assert.strictEqual((yield* adminCall(b.key, "GET", path)).status, 200)
        }
        const mine = list(yield* adminCall(a.key, "GET", "/admin/events?limit=200")).map((e) => e["id"])
        assert.notInclude(mine, theirs.event)
        const organisation = data(yield* adminCall(b.key, "GET", "/admin/organisation"))
        assert.deepStrictEqual(organisation, { id: "org-u", name: "Other organisation" })
      }))
  })
}

reportSkippedPostgres("organiser routes")
