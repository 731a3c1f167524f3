import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { backends, reportSkippedPostgres } from "./backends.js"
import { adminCall, data, json, keyOf, list, newOrganisation } from "./adminSupport.js"
import { baseUrl, call, envelope, eventually, liveOptions, testServer } from "./harness.js"
import { request as httpRequest } from "node:http"

/** A POST with a Host header of the caller's choice (fetch always sends the real one). */
const rawPost = (base: string, path: string, key: string, host: string) =>
  new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = httpRequest(new URL(path, base), { method: "POST", headers: { host, authorization: `Bearer ${key}` } }, (res) => {
      let text = ""
      res.setEncoding("utf8")
      res.on("data", (chunk: string) => (text += chunk))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }))
    })
    req.on("error", reject)
    req.end()
  })

const invalidQuery = envelope("INVALID_QUERY", "A query parameter is malformed.")
const inUse = envelope("IN_USE", "This resource is still referenced and cannot be deleted.")

for (const backend of backends) {
  layer(testServer(backend), liveOptions)(`organiser data (${backend})`, (it) => {
    it.effect("paging through more rows than a page while rows are added: no duplicate, no miss", () =>
      Effect.gen(function*() {
        const { key } = yield* newOrganisation
        const created: Array<string> = []
        for (let i = 0; i < 9; i++) created.push(String(data(yield* adminCall(key, "POST", "/admin/events", { name: `E${i}` }))["id"]))
        const seen: Array<string> = []
        let cursor: string | null = null
        let pages = 0
        do {
          const res = yield* adminCall(key, "GET", `/admin/events?limit=2${cursor === null ? "" : `&cursor=${cursor}`}`)
          assert.strictEqual(res.status, 200, res.text)
          seen.push(...list(res).map((e) => String(e["id"])))
          cursor = json(res)["next_cursor"] as string | null
          // A row created while paging is newer than every row listed: it never shifts a page.
          yield* adminCall(key, "POST", "/admin/events", { name: `during ${pages}` })
          pages++
        } while (cursor !== null)
        assert.strictEqual(pages, 5)
        assert.deepStrictEqual([...seen].sort(), [...created].sort())
        assert.strictEqual(new Set(seen).size, seen.length)
        // The last page's next_cursor is null exactly when no row follows.
        const all = yield* adminCall(key, "GET", "/admin/events?limit=200")
        assert.strictEqual(json(all)["next_cursor"], null)
        assert.strictEqual(list(all).length, 9 + 5)
      }))

    it.effect("time slots page in §2 order with the same guarantees", () =>
      Effect.gen(function*() {
        const { key } = yield* newOrganisation
        const event = String(data(yield* adminCall(key, "POST", "/admin/events", { name: "Fest" }))["id"])
        const slot = (name: string, date: string, start: string) =>
          adminCall(key, "POST", `/admin/events/${event}/time-slots`, { name, date, start_time: start, end_time: "23:00" })
        for (const [n, d, s] of [["b", "2027-08-21", "08:00"], ["a", "2027-08-20", "09:00"], ["c", "2027-08-20", "08:00"], ["a", "2027-08-20", "08:00"]] as const) {
          assert.strictEqual((yield* slot(n, d, s)).status, 201)
        }
        const first = yield* adminCall(key, "GET", `/admin/events/${event}/time-slots?limit=3`)
        const next = yield* adminCall(key, "GET", `/admin/events/${event}/time-slots?limit=3&cursor=${String(json(first)["next_cursor"])}`)
        const order = [...list(first), ...list(next)].map((s) => `${String(s["date"])} ${String(s["start_time"])} ${String(s["name"])}`)
        assert.deepStrictEqual(order, ["2027-08-20 08:00 a", "2027-08-20 08:00 c", "2027-08-20 09:00 a", "2027-08-21 08:00 b"])
        assert.strictEqual(json(next)["next_cursor"], null)
        assert.deepStrictEqual(list(first)[0], {
          ...list(first)[0],
          end_time: "23:00",
          duration_hours: 15,
          capacity: null,
          remaining: null,
          event_name: "Fest"
        })
      }))

    it.effect("a malformed limit or cursor is 400 INVALID_QUERY on every list", () =>
      Effect.gen(function*() {
        const { key } = yield* newOrganisation
        const event = String(data(yield* adminCall(key, "POST", "/admin/events", { name: "Fest" }))["id"])
        const lists = ["/admin/events", `/admin/events/${event}/time-slots`, `/admin/events/${event}/sections`, "/admin/audit-log"]
        const bad = ["limit=0", "limit=201", "limit=abc", "limit=1.5", "limit=-1", "limit=", "limit=1&limit=2", "cursor=", "cursor=%%%",
          "cursor=not-a-cursor", `cursor=${Buffer.from("[1,2,3,4,5]").toString("base64url")}`,
          `cursor=${Buffer.from("[\"2027-02-30\",\"08:00\",\"a\",\"b\"]").toString("base64url")}`,
          `cursor=${Buffer.from("{\"a\":1}").toString("base64url")}`]
        for (const path of lists) {
          for (const query of bad) {
            const res = yield* adminCall(key, "GET", `${path}?${query}`)
            assert.strictEqual(res.status, 400, `${path}?${query}`)
            assert.strictEqual(res.text, invalidQuery, `${path}?${query}`)
          }
          assert.strictEqual((yield* adminCall(key, "GET", `${path}?limit=200`)).status, 200)
        }
        // The query is checked before the ids in the path.
        assert.strictEqual((yield* adminCall(key, "GET", "/admin/events/nope/time-slots?limit=0")).text, invalidQuery)
      }))

    it.effect("deletes of referenced events answer 409 IN_USE and write nothing", () =>
      Effect.gen(function*() {
        const t = yield* keyOf("org-t")
        const u = yield* keyOf("org-u")
        const auditCount = (key: string) => Effect.map(adminCall(key, "GET", "/admin/audit-log?limit=200"), (r) => list(r).length)
        const before = yield* auditCount(t.key)
        // ev-t: a child event, forms and a section; ev-t-child: a slot; ev-u: engagements.
        for (const [key, id] of [[t.key, "ev-t"], [t.key, "ev-t-child"], [u.key, "ev-u"]] as const) {
          const res = yield* adminCall(key, "DELETE", `/admin/events/${id}`)
          assert.strictEqual(res.status, 409, id)
          assert.strictEqual(res.text, inUse, id)
          assert.strictEqual((yield* adminCall(key, "GET", `/admin/events/${id}`)).status, 200)
        }
        assert.strictEqual(yield* auditCount(t.key), before)
        // A parent with only children: deleting the child first frees it.
        const parent = String(data(yield* adminCall(t.key, "POST", "/admin/events", { name: "P" }))["id"])
        const child = String(data(yield* adminCall(t.key, "POST", "/admin/events", { name: "C", parent_event_id: parent }))["id"])
        assert.strictEqual((yield* adminCall(t.key, "DELETE", `/admin/events/${parent}`)).text, inUse)
        assert.strictEqual((yield* adminCall(t.key, "DELETE", `/admin/events/${child}`)).status, 204)
        assert.strictEqual((yield* adminCall(t.key, "DELETE", `/admin/events/${parent}`)).status, 204)
        assert.strictEqual((yield* adminCall(t.key, "GET", `/admin/events/${parent}`)).status, 404)
      }))

    it.effect("audit entries for every write and only writes, holding ids, never values or keys", () =>
      Effect.gen(function*() {
        const { key, id: keyId } = yield* newOrganisation
        const post = (path: string, body: unknown) => Effect.map(adminCall(key, "POST", path, body), (r) => String(data(r)["id"]))
        const event = yield* post("/admin/events", { name: "Secret festival name" })
        const slot = yield* post(`/admin/events/${event}/time-slots`, { name: "Secret slot", date: "2027-08-20", start_time: "08:00", end_time: "09:00" })
        const section = yield* post(`/admin/events/${event}/sections`, { name: "Secret section" })
        yield* adminCall(key, "PATCH", `/admin/events/${event}`, { name: "Secret renamed" })
        yield* adminCall(key, "PATCH", `/admin/time-slots/${slot}`, { capacity: 9 })
        yield* adminCall(key, "PATCH", `/admin/event-sections/${section}`, { position: 4 })
        // Reads, refusals and failed checks are not writes.
        yield* adminCall(key, "GET", `/admin/events/${event}`)
        yield* adminCall(key, "GET", "/admin/events")
        yield* adminCall(key, "POST", "/admin/events", { name: "" })
        yield* adminCall(key, "DELETE", `/admin/events/${event}`)
        yield* adminCall(key, "DELETE", `/admin/time-slots/${slot}`)
        yield* adminCall(key, "DELETE", `/admin/event-sections/${section}`)
        yield* adminCall(key, "DELETE", `/admin/events/${event}`)
        const entries = list(yield* adminCall(key, "GET", "/admin/audit-log"))
        assert.deepStrictEqual(entries.map((e) => [e["action"], e["resource_type"], e["resource_id"]]), [
          ["event.deleted", "event", event],
          ["event_section.deleted", "event_section", section],
          ["time_slot.deleted", "time_slot", slot],
          ["event_section.updated", "event_section", section],
          ["time_slot.updated", "time_slot", slot],
          ["event.updated", "event", event],
          ["event_section.created", "event_section", section],
          ["time_slot.created", "time_slot", slot],
          ["event.created", "event", event]
        ])
        for (const entry of entries) assert.strictEqual(entry["api_key_id"], keyId)
        const text = JSON.stringify(entries)
        assert.notInclude(text, "Secret")
        assert.notInclude(text, key.slice(4, 12))
      }))

    it.effect("bodies: 422 keyed by dotted path, unknown members invalid, parents of another organisation `in`", () =>
      Effect.gen(function*() {
        const { key } = yield* newOrganisation
        const res = yield* adminCall(key, "POST", "/admin/events", { name: 5, extra: true })
        assert.strictEqual(res.status, 422)
        const fields = (json(res)["error"] as Record<string, unknown>)["fields"] as Record<string, ReadonlyArray<Record<string, string>>>
        assert.deepStrictEqual(Object.keys(fields).sort(), ["extra", "name"])
        assert.strictEqual(fields["extra"]?.[0]?.["rule"], "invalid")
        const foreignParent = yield* adminCall(key, "POST", "/admin/events", { name: "Day", parent_event_id: "ev-t" })
        assert.strictEqual(foreignParent.status, 422)
        assert.strictEqual(((json(foreignParent)["error"] as Record<string, unknown>)["fields"] as Record<string, ReadonlyArray<Record<string, string>>>)["parent_event_id"]?.[0]?.["rule"], "in")
        assert.strictEqual((yield* adminCall(key, "POST", "/admin/events", { name: "x".repeat(201) })).status, 422)
        assert.strictEqual((yield* adminCall(key, "POST", "/admin/events", { name: "\u0000" })).status, 422)
        assert.strictEqual(list(yield* adminCall(key, "GET", "/admin/events")).length, 0)
        // A date PostgreSQL cannot store (it has no year 0) is malformed: 422 on create and on update, never a 500.
        const event = String(data(yield* adminCall(key, "POST", "/admin/events", { name: "Fest" }))["id"])
        const yearZero = { name: "Dawn", date: "0000-01-01", start_time: "08:00", end_time: "09:00" }
        const refused = yield* adminCall(key, "POST", `/admin/events/${event}/time-slots`, yearZero)
        assert.strictEqual(refused.status, 422, refused.text)
        assert.strictEqual(((json(refused)["error"] as Record<string, unknown>)["fields"] as Record<string, ReadonlyArray<Record<string, string>>>)["date"]?.[0]?.["rule"], "invalid")
        const slot = String(data(yield* adminCall(key, "POST", `/admin/events/${event}/time-slots`, { ...yearZero, date: "0001-01-01" }))["id"])
        const patched = yield* adminCall(key, "PATCH", `/admin/time-slots/${slot}`, { date: "0000-12-31" })
        assert.strictEqual(patched.status, 422, patched.text)
      }))

    it.effect("POST /admin/engagements: 201 the list item, audited, portal-ready; bad bodies 422 by path, nothing written", () =>
      Effect.gen(function*() {
        const u = yield* keyOf("org-u")
        const artist = String(data(yield* adminCall(u.key, "POST", "/admin/artists", { name: "Engaged" }))["id"])
        const t = yield* keyOf("org-t")
        const theirArtist = String(data(yield* adminCall(t.key, "POST", "/admin/artists", { name: "Theirs" }))["id"])
        const engagements = Effect.map(adminCall(u.key, "GET", "/admin/engagements?limit=200"), list)
        const audit = Effect.map(adminCall(u.key, "GET", "/admin/audit-log?limit=200"), list)
        const [before, auditBefore] = [(yield* engagements).length, (yield* audit).length]
        const fieldsOf = (r: { text: string }) =>
          ((JSON.parse(r.text) as Record<string, Record<string, unknown>>)["error"]?.["fields"] ?? {}) as Record<string, ReadonlyArray<Record<string, string>>>
        const bad: ReadonlyArray<readonly [unknown, Record<string, string>]> = [
          [{ event_id: "ev-t", master_artist_id: artist, advance_sections: [] }, { event_id: "in" }],
          [{ event_id: "ev-u", master_artist_id: theirArtist, advance_sections: [] }, { master_artist_id: "in" }],
          [{ event_id: "ev-u", master_artist_id: artist, advance_sections: [{ name: "", position: 1 }, { name: "ok", position: "1" }], x: 1 },
            { "advance_sections.0.name": "required", "advance_sections.1.position": "invalid", x: "invalid" }],
          [{ event_id: "ev-u", master_artist_id: artist }, { advance_sections: "required" }],
          [{ event_id: "ev-u", master_artist_id: artist, advance_sections: Array.from({ length: 101 }, (_, i) => ({ name: `s${i}`, position: i })) },
            { advance_sections: "max" }]
        ]
        for (const [body, expected] of bad) {
          const res = yield* adminCall(u.key, "POST", "/admin/engagements", body)
          assert.strictEqual(res.status, 422, res.text)
          const fields = fieldsOf(res)
          assert.deepStrictEqual(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v[0]?.["rule"]])), expected, JSON.stringify(body))
        }
        assert.strictEqual((yield* engagements).length, before)
        assert.strictEqual((yield* audit).length, auditBefore)
        const created = yield* adminCall(u.key, "POST", "/admin/engagements", {
          event_id: "ev-u",
          master_artist_id: artist,
          advance_sections: [{ name: "Travel", position: 2 }, { name: "Rider", position: 1 }]
        })
        assert.strictEqual(created.status, 201, created.text)
        const item = data(created)
        const id = String(item["id"])
        assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
        const sections = item["advance_sections"] as ReadonlyArray<Record<string, unknown>>
        assert.deepStrictEqual(sections.map((s) => [s["name"], s["position"], s["status"], s["submitted_at"]]),
          [["Rider", 1, "pending", null], ["Travel", 2, "pending", null]])
        assert.deepStrictEqual((yield* engagements)[0], item)
        assert.deepStrictEqual(data(yield* adminCall(u.key, "GET", `/admin/engagements/${id}`)), { ...item, advance: {}, values: {} })
        const entries = yield* audit
        assert.deepStrictEqual([entries[0]?.["action"], entries[0]?.["resource_type"], entries[0]?.["resource_id"], entries[0]?.["api_key_id"]],
          ["engagement.created", "engagement", id, u.id])
        assert.strictEqual(entries.length, auditBefore + 1)
        // No portal token yet; the link the organiser asks for opens the new engagement's portal.
        const link = data(yield* adminCall(u.key, "POST", `/admin/engagements/${id}/portal-link`))
        const portal = yield* call(new URL(String(link["portal_url"])).pathname)
        assert.strictEqual(portal.status, 200, portal.text)
        assert.include(portal.text, String(sections[0]?.["id"]))
        // A soft-deleted artist is no valid reference (its portal would answer 410).
        assert.strictEqual((yield* adminCall(u.key, "DELETE", `/admin/artists/${artist}`)).status, 204)
        const gone = yield* adminCall(u.key, "POST", "/admin/engagements", { event_id: "ev-u", master_artist_id: artist, advance_sections: [] })
        assert.deepStrictEqual(Object.keys(fieldsOf(gone)), ["master_artist_id"])
        assert.strictEqual(fieldsOf(gone)["master_artist_id"]?.[0]?.["rule"], "in")
      }))

    // Before the artists test: that one soft-deletes ma-1, the artist of eng-cli.
    it.effect("engagements show what artists sent; a portal link replaces the old token and is audited", () =>
      Effect.gen(function*() {
        const u = yield* keyOf("org-u")
        const submitted = yield* call("/p/artist/test-portal-cli-0001/sections/as-cli-travel", {
          method: "POST",
          body: { values: { arrival: "2027-08-19", travel_notes: "by train" } }
        })
        assert.strictEqual(submitted.status, 200, submitted.text)
        const detail = data(yield* adminCall(u.key, "GET", "/admin/engagements/eng-cli"))
        assert.deepStrictEqual(detail["values"], { arrival: "2027-08-19", travel_notes: "by train" })
        assert.strictEqual(detail["event_id"], "ev-u")
        const sections = detail["advance_sections"] as ReadonlyArray<Record<string, unknown>>
        assert.deepStrictEqual(sections.map((s) => [s["id"], s["status"]]), [["as-cli-travel", "submitted"]])
        // What §5 applied (asynchronously, by the event handlers) shows on the engagement and the artist.
        const applied = yield* eventually(
          adminCall(u.key, "GET", "/admin/engagements/eng-cli"),
          (r) => (data(r)["advance"] as Record<string, unknown>)["arrival_date"] === "2027-08-19"
        )
        assert.strictEqual((data(applied)["advance"] as Record<string, unknown>)["arrival_date"], "2027-08-19")
        const artist = yield* eventually(
          adminCall(u.key, "GET", "/admin/artists/ma-1"),
          (r) => (data(r)["profile"] as Record<string, unknown>)["travel_notes"] === "by train"
        )
        assert.strictEqual((data(artist)["profile"] as Record<string, unknown>)["travel_notes"], "by train")
        const listed = list(yield* adminCall(u.key, "GET", "/admin/engagements?limit=200")).map((e) => e["id"])
        assert.includeMembers(listed as Array<unknown>, ["eng-1", "eng-gone", "eng-cli"])
        const link = yield* adminCall(u.key, "POST", "/admin/engagements/eng-cli/portal-link")
        assert.strictEqual(link.status, 200, link.text)
        const urls = data(link)
        assert.match(String(urls["portal_url"]), /\/p\/artist\/[A-Za-z0-9_-]{43}$/)
        assert.match(String(urls["page_url"]), /\/portal\/[A-Za-z0-9_-]{43}$/)
        assert.strictEqual((yield* call("/p/artist/test-portal-cli-0001")).status, 404)
        assert.strictEqual((yield* call(new URL(String(urls["portal_url"])).pathname)).status, 200)
        const entries = list(yield* adminCall(u.key, "GET", "/admin/audit-log?limit=5"))
        assert.deepStrictEqual([entries[0]?.["action"], entries[0]?.["resource_id"], entries[0]?.["api_key_id"]],
          ["engagement.portal_link_created", "eng-cli", u.id])
        const token = String(urls["portal_url"]).split("/").at(-1) ?? ""
        assert.notInclude(JSON.stringify(entries), token)
        // The link is printed on the server's own base URL, never on a Host header a client chose.
        const base = yield* baseUrl
        assert.isTrue(String(urls["portal_url"]).startsWith(`${base}/p/artist/`), String(urls["portal_url"]))
        const forged = yield* Effect.promise(() => rawPost(base, "/admin/engagements/eng-cli/portal-link", u.key, "evil.example"))
        assert.strictEqual(forged.status, 200, forged.text)
        const forgedUrls = JSON.parse(forged.text).data as Record<string, string>
        assert.isTrue(String(forgedUrls["portal_url"]).startsWith(`${base}/p/artist/`), forgedUrls["portal_url"])
        assert.notInclude(forged.text, "evil.example")
      }))
    it.effect("artists: GET shows the profile; a soft-deleted artist's portal answers 410, repeated deletes write nothing", () =>
      Effect.gen(function*() {
        const u = yield* keyOf("org-u")
        const detail = data(yield* adminCall(u.key, "GET", "/admin/artists/ma-1"))
        assert.deepStrictEqual({ ...detail, profile: null }, { id: "ma-1", name: "The Testers", deleted_at: null, profile: null })
        assert.strictEqual((yield* call("/p/artist/test-portal-token-0001")).status, 200)
        assert.strictEqual((yield* adminCall(u.key, "DELETE", "/admin/artists/ma-1")).status, 204)
        const gone = yield* call("/p/artist/test-portal-token-0001")
        assert.strictEqual(gone.status, 410)
        assert.strictEqual(gone.text, envelope("ARTIST_GONE", "The artist of this portal no longer exists."))
        const deletedAt = data(yield* adminCall(u.key, "GET", "/admin/artists/ma-1"))["deleted_at"]
        assert.match(String(deletedAt), /^\d{4}-\d\d-\d\dT/)
        assert.strictEqual((yield* adminCall(u.key, "DELETE", "/admin/artists/ma-1")).status, 204)
        assert.strictEqual(data(yield* adminCall(u.key, "GET", "/admin/artists/ma-1"))["deleted_at"], deletedAt)
        const deletes = list(yield* adminCall(u.key, "GET", "/admin/audit-log?limit=200"))
          .filter((e) => e["action"] === "artist.deleted" && e["resource_id"] === "ma-1")
        assert.strictEqual(deletes.length, 1)
        const created = yield* adminCall(u.key, "POST", "/admin/artists", { name: "Newcomers" })
        assert.strictEqual(created.status, 201)
        assert.deepStrictEqual(Object.keys(data(created)).sort(), ["deleted_at", "id", "name"])
        assert.strictEqual(list(yield* adminCall(u.key, "GET", "/admin/artists?limit=1"))[0]?.["name"], "Newcomers")
      }))

  })
}

reportSkippedPostgres("organiser data")
