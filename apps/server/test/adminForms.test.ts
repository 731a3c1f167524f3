/**
 * The form-authoring routes (CONTRACT §12) on the whole server: a form's life, If-Match (428 / 412),
 * every definition problem at once, a change applying to the next save at once, and two concurrent PUTs
 * of one revision (exactly one 200, one 412) on PGlite and on PostgreSQL.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { backends, reportSkippedPostgres } from "./backends.js"
import { bearer, data, json, list, newOrganisation } from "./adminSupport.js"
import { call, envelope, liveOptions, testServer } from "./harness.js"

const preconditionRequired = envelope(
  "PRECONDITION_REQUIRED",
  "This request needs an If-Match header naming the form's revision (its ETag)."
)
const revisionConflict = envelope(
  "REVISION_CONFLICT",
  "The form has changed since the revision named in If-Match. Read it again and retry."
)

const send = (key: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  call(path, { method, headers: { ...bearer(key), ...headers }, ...(body === undefined ? {} : { body }) })

const definition = (eventId: string) => ({
  name: "Crew 2027",
  type: "volunteer",
  event_id: eventId,
  status: "published",
  tags: ["crew"],
  sections: [{ id: "about", name: "About you", position: 1 }],
  fields: [
    { id: "email", section_id: "about", slug: "email", label: "Email", type: "email", is_required: true },
    { slug: "nickname", label: "Nickname", type: "text" }
  ]
})

const newDraft = (token: string, n: number) =>
  call(`/public/forms/${token}/submissions`, { method: "POST", body: { idempotency_key: `forms-test-key-${n}-${Math.random()}` } })

for (const backend of backends) {
  layer(testServer(backend), liveOptions)(`organiser forms (${backend})`, (it) => {
    it.effect("a form's life: create, read, edit under If-Match, patch, rotate, delete; ETag on every form", () =>
      Effect.gen(function*() {
        const { key } = yield* newOrganisation
        const event = String(data(yield* send(key, "POST", "/admin/events", { name: "Fest" }))["id"])
        const created = yield* send(key, "POST", "/admin/forms", definition(event))
        assert.strictEqual(created.status, 201, created.text)
        assert.strictEqual(created.headers.get("etag"), '"1"')
        const form = data(created)
        const id = String(form["id"])
        const token = String(form["public_token"])
        assert.strictEqual(form["revision"], 1)
        assert.match(token, /^[A-Za-z0-9_-]{43}$/)
        assert.match(String(form["public_url"]), new RegExp(`/public/forms/${token}$`))
        assert.match(String(form["page_url"]), new RegExp(`/f/${token}$`))
        const fields = form["fields"] as ReadonlyArray<Record<string, unknown>>
        assert.strictEqual(fields[0]?.["id"], "email")
        assert.match(String(fields[1]?.["id"]), /.+/)
        assert.deepStrictEqual(fields[1], {
          id: fields[1]?.["id"], section_id: null, slug: "nickname", label: "Nickname", type: "text", is_required: false,
          options: null, validation_rules: null, is_unique: false, position: 2, maps_to: null, visible_if: null, help: null
        })
        // The public side sees it at once.
        assert.strictEqual((yield* call(`/public/forms/${token}`)).status, 200)

        const got = yield* send(key, "GET", `/admin/forms/${id}`)
        assert.strictEqual(got.headers.get("etag"), '"1"')
        const listed = list(yield* send(key, "GET", "/admin/forms"))
        assert.deepStrictEqual(listed.map((f) => [f["id"], f["revision"], f["counts"]]), [[id, 1, { drafts: 0, submitted: 0 }]])

        // PUT: 428 without If-Match, 412 when stale, weak or unquoted; nothing written.
        const edited = { ...data(got), name: "Crew 2027 (edited)" }
        const none = yield* send(key, "PUT", `/admin/forms/${id}`, edited)
        assert.strictEqual(none.status, 428)
        assert.strictEqual(none.text, preconditionRequired)
        for (const tag of ['"2"', 'W/"1"', "1"]) {
          const stale = yield* send(key, "PUT", `/admin/forms/${id}`, edited, { "if-match": tag })
          assert.strictEqual(stale.status, 412, tag)
          assert.strictEqual(stale.text, revisionConflict)
        }
        // GET → edit → PUT with the read-only members sent back.
        const put = yield* send(key, "PUT", `/admin/forms/${id}`, edited, { "if-match": '"1"' })
        assert.strictEqual(put.status, 200, put.text)
        assert.strictEqual(put.headers.get("etag"), '"2"')
        assert.strictEqual(data(put)["name"], "Crew 2027 (edited)")
        assert.deepStrictEqual(data(put)["fields"], form["fields"])
        const star = yield* send(key, "PUT", `/admin/forms/${id}`, edited, { "if-match": "*" })
        assert.strictEqual(star.headers.get("etag"), '"3"')

        const patched = yield* send(key, "PATCH", `/admin/forms/${id}`, { status: "archived" })
        assert.strictEqual(patched.status, 200, patched.text)
        assert.strictEqual(patched.headers.get("etag"), '"4"')
        const stalePatch = yield* send(key, "PATCH", `/admin/forms/${id}`, { status: "published" }, { "if-match": '"3"' })
        assert.strictEqual(stalePatch.status, 412)
        assert.strictEqual((yield* send(key, "PATCH", `/admin/forms/${id}`, { status: "published" }, { "if-match": '"4"' })).status, 200)

        // Rotation: a new token, the old one works for the grace window, the revision stays.
        const rotated = yield* send(key, "POST", `/admin/forms/${id}/rotate-token`)
        assert.strictEqual(rotated.status, 200, rotated.text)
        const rotation = data(rotated)
        assert.deepStrictEqual(Object.keys(rotation).sort(), ["page_url", "previous_public_token", "public_token", "public_url", "token_rotated_at"])
        assert.strictEqual(rotation["previous_public_token"], token)
        assert.notStrictEqual(rotation["public_token"], token)
        assert.strictEqual((yield* call(`/public/forms/${token}`)).status, 200)
        assert.strictEqual((yield* call(`/public/forms/${String(rotation["public_token"])}`)).status, 200)
        assert.strictEqual((yield* send(key, "GET", `/admin/forms/${id}`)).headers.get("etag"), '"5"')

        // A form with submissions is IN_USE; archived instead. One without is deleted.
        assert.strictEqual((yield* newDraft(String(rotation["public_token"]), 1)).status, 201)
        const inUse = yield* send(key, "DELETE", `/admin/forms/${id}`)
        assert.strictEqual(inUse.status, 409)
        assert.strictEqual(json(inUse)["error"] !== undefined, true)
        assert.deepStrictEqual(list(yield* send(key, "GET", "/admin/forms")).map((f) => f["counts"]), [{ drafts: 1, submitted: 0 }])
        const spare = String(data(yield* send(key, "POST", "/admin/forms", { ...definition(event), status: "draft" }))["id"])
        assert.strictEqual((yield* send(key, "DELETE", `/admin/forms/${spare}`)).status, 204)
        assert.strictEqual((yield* send(key, "GET", `/admin/forms/${spare}`)).status, 404)

        const audit = list(yield* send(key, "GET", "/admin/audit-log?limit=200"))
          .filter((e) => e["resource_type"] === "form").map((e) => e["action"])
        assert.deepStrictEqual(audit, [
          "form.deleted", "form.created", "form.token_rotated", "form.updated", "form.updated", "form.updated", "form.updated", "form.created"
        ])
      }))

    it.effect("ids of another organisation are unknown ones; no key is 401", () =>
      Effect.gen(function*() {
        const a = yield* newOrganisation
        const b = yield* newOrganisation
        const id = String(data(yield* send(a.key, "POST", "/admin/forms", { name: "F", type: "registration", event_id: null }))["id"])
        for (const [method, path] of [["GET", `/admin/forms/${id}`], ["PUT", `/admin/forms/${id}`], ["PATCH", `/admin/forms/${id}`], ["DELETE", `/admin/forms/${id}`], ["POST", `/admin/forms/${id}/rotate-token`]] as const) {
          const res = yield* send(b.key, method, path, method === "PUT" || method === "PATCH" ? {} : undefined)
          assert.strictEqual(res.status, 404, `${method} ${path}`)
          assert.strictEqual(res.text, envelope("FORM_NOT_FOUND", "No published form has this token."))
        }
        assert.strictEqual((yield* call("/admin/forms")).status, 401)
      }))

    it.effect("a definition's problems all at once, at dotted paths with §12 rules; nothing written", () =>
      Effect.gen(function*() {
        const { key } = yield* newOrganisation
        const res = yield* send(key, "POST", "/admin/forms", {
          name: "x".repeat(501),
          type: "registration",
          event_id: "ev-u",
          fields: [
            { slug: "bad slug", label: "A", type: "text" },
            { slug: "ok", label: "A", type: "text", validation_rules: { regex: "(?<=a)b", min: 5, max: 2 } },
            { slug: "ok", label: "A", type: "time_slots", section_id: "nope", maps_to: "artist" },
            { slug: "opts", label: "A", type: "select", options: [{ label: "no value" }] }
          ],
          sections: [{ name: "S" }, { id: "x", name: "T", colour: "red" }]
        })
        assert.strictEqual(res.status, 422, res.text)
        const fields = (json(res)["error"] as { fields: Record<string, ReadonlyArray<{ rule: string }>> }).fields
        assert.deepStrictEqual(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v.map((e) => e.rule)])), {
          name: ["max"],
          event_id: ["in"],
          "sections.1.colour": ["invalid"],
          "fields.3.options.0.value": ["required"],
          "fields.0.slug": ["invalid"],
          "fields.1.validation_rules.min": ["invalid"],
          "fields.1.validation_rules.regex": ["regex"],
          "fields.2.slug": ["unique"],
          "fields.2.type": ["invalid"],
          "fields.2.section_id": ["in"],
          "fields.2.maps_to": ["invalid"]
        })
        assert.deepStrictEqual(list(yield* send(key, "GET", "/admin/forms")), [])
        // Strings PostgreSQL cannot store are malformed members (422), never a 5xx.
        const unstorable = yield* send(key, "POST", "/admin/forms", {
          name: "F", type: "registration", event_id: null,
          fields: [{ slug: "a", label: "a\u0000b", type: "text", options: ["x\ud800"], validation_rules: { regex: "\udc00" } }]
        })
        assert.strictEqual(unstorable.status, 422, unstorable.text)
        assert.deepStrictEqual(Object.keys((json(unstorable)["error"] as { fields: object }).fields).sort(), [
          "fields.0.label", "fields.0.options.0", "fields.0.validation_rules.regex"
        ])
        // One artist_advance form per organisation.
        const advance = { name: "Advance", type: "artist_advance", event_id: null }
        const first = yield* send(key, "POST", "/admin/forms", advance)
        assert.strictEqual(first.status, 201)
        assert.strictEqual(data(first)["public_token"], null)
        const second = yield* send(key, "POST", "/admin/forms", advance)
        assert.strictEqual(second.status, 422)
        assert.deepStrictEqual(Object.keys((json(second)["error"] as { fields: object }).fields), ["type"])
      }))

    it.effect("form and field types outside the lists → 422 in naming the valid ones, on POST and PUT; positions default to the list index", () =>
      Effect.gen(function*() {
        const { key } = yield* newOrganisation
        const event = String(data(yield* send(key, "POST", "/admin/events", { name: "Fest" }))["id"])
        const typo = {
          ...definition(event),
          type: "volunteers",
          fields: [...definition(event).fields, { slug: "size", label: "Size", type: "dropdown", options: ["S", "M"] }]
        }
        const refused = yield* send(key, "POST", "/admin/forms", typo)
        assert.strictEqual(refused.status, 422, refused.text)
        const fields = (json(refused)["error"] as { fields: Record<string, ReadonlyArray<{ rule: string; message: string }>> }).fields
        assert.deepStrictEqual(fields, {
          type: [{ rule: "in", message: "The form type \"volunteers\" is not one of registration, volunteer, artist_advance." }],
          "fields.2.type": [{
            rule: "in",
            message: "The field type \"dropdown\" is not one of text, textarea, email, url, numeric, date, boolean, phone, " +
              "select, radio, checkbox, checkboxes, multi_select, time_slots, file, hidden."
          }]
        })
        assert.deepStrictEqual(list(yield* send(key, "GET", "/admin/forms")), [])
        // Listed types pass; parts sent without position keep the order written (1-based index).
        const created = yield* send(key, "POST", "/admin/forms", {
          ...definition(event),
          sections: [{ id: "b", name: "B" }, { id: "a", name: "A" }],
          fields: [
            { slug: "zeta", label: "Z", type: "select", options: ["x"] },
            { slug: "alpha", label: "A", type: "multi_select", options: ["x"] },
            { slug: "mid", label: "M", type: "textarea", section_id: "a" }
          ]
        })
        assert.strictEqual(created.status, 201, created.text)
        const form = data(created)
        const parts = (name: string) => (form[name] as ReadonlyArray<Record<string, unknown>>).map((p) => [p["id"] ?? "", p["position"]])
        assert.deepStrictEqual(parts("sections"), [["b", 1], ["a", 2]])
        assert.deepStrictEqual((form["fields"] as ReadonlyArray<Record<string, unknown>>).map((f) => [f["slug"], f["position"]]), [
          ["zeta", 1], ["alpha", 2], ["mid", 3]
        ])
        const page = yield* call(`/public/forms/${String(form["public_token"])}`)
        const publicForm = data(page)
        assert.deepStrictEqual((publicForm["fields"] as ReadonlyArray<Record<string, unknown>>).map((f) => f["slug"]), ["zeta", "alpha"])
        const put = yield* send(key, "PUT", `/admin/forms/${String(form["id"])}`, { ...form, type: "Volunteer" }, { "if-match": '"1"' })
        assert.strictEqual(put.status, 422, put.text)
        assert.deepStrictEqual(Object.keys((json(put)["error"] as { fields: object }).fields), ["type"])
      }))

    it.effect("regex_message round-trips through POST, GET and PUT, is shown on the public form and is the regex error's message", () =>
      Effect.gen(function*() {
        const { key } = yield* newOrganisation
        const event = String(data(yield* send(key, "POST", "/admin/events", { name: "Fest" }))["id"])
        const own = { regex: "/^[A-Z]{2}-[0-9]{4}$/", regex_message: "Two capital letters, a dash and four digits." }
        const code = { slug: "code", label: "Code", type: "text", validation_rules: own }
        const created = yield* send(key, "POST", "/admin/forms", { ...definition(event), fields: [code] })
        assert.strictEqual(created.status, 201, created.text)
        const form = data(created)
        const rulesOf = (f: Record<string, unknown>) => (f["fields"] as ReadonlyArray<Record<string, unknown>>)[0]?.["validation_rules"]
        assert.deepStrictEqual(rulesOf(form), own)
        assert.deepStrictEqual(rulesOf(data(yield* send(key, "GET", `/admin/forms/${String(form["id"])}`))), own)
        const token = String(form["public_token"])
        assert.deepStrictEqual(rulesOf(data(yield* call(`/public/forms/${token}`))), own)
        const draft = yield* newDraft(token, 90)
        const saved = yield* call(`/public/forms/${token}/submissions/${String(data(draft)["id"])}`, {
          method: "PUT", body: { values: { code: "ab-1" } }
        })
        assert.strictEqual(saved.status, 422)
        assert.deepStrictEqual((json(saved)["error"] as { fields: unknown }).fields, {
          code: [{ rule: "regex", message: "Two capital letters, a dash and four digits." }]
        })
        // PUT changes it; too long is refused at its path.
        const changed = { ...own, regex_message: "Like AB-1234." }
        const put = yield* send(key, "PUT", `/admin/forms/${String(form["id"])}`, { ...form, fields: [{ ...code, validation_rules: changed }] }, { "if-match": '"1"' })
        assert.strictEqual(put.status, 200, put.text)
        assert.deepStrictEqual(rulesOf(data(put)), changed)
        const long = yield* send(key, "PUT", `/admin/forms/${String(form["id"])}`, {
          ...form, fields: [{ ...code, validation_rules: { ...own, regex_message: "x".repeat(201) } }]
        }, { "if-match": "*" })
        assert.strictEqual(long.status, 422, long.text)
        assert.deepStrictEqual(Object.entries((json(long)["error"] as { fields: Record<string, ReadonlyArray<{ rule: string }>> }).fields)
          .map(([k, v]) => [k, v.map((e) => e.rule)]), [["fields.0.validation_rules.regex_message", ["max"]]])
      }))

    it.effect("a pattern over the cost budget is refused with rule regex at its path, on POST and PUT", () =>
      Effect.gen(function*() {
        const { key } = yield* newOrganisation
        const event = String(data(yield* send(key, "POST", "/admin/events", { name: "Fest" }))["id"])
        const costly = (at: number) => ({
          ...definition(event),
          fields: [
            ...definition(event).fields,
            { slug: "bio", label: "Bio", type: "text", validation_rules: { regex: "^[\\p{L} .'-]+$" } }
          ].map((f, i) => (i === at ? { ...f, validation_rules: { regex: "(\\w+\\s?){1000}" } } : f))
        })
        const refused = yield* send(key, "POST", "/admin/forms", costly(2))
        assert.strictEqual(refused.status, 422, refused.text)
        const fields = (json(refused)["error"] as { fields: Record<string, ReadonlyArray<{ rule: string; message: string }>> }).fields
        assert.deepStrictEqual(Object.keys(fields), ["fields.2.validation_rules.regex"])
        assert.strictEqual(fields["fields.2.validation_rules.regex"]?.[0]?.rule, "regex")
        assert.match(String(fields["fields.2.validation_rules.regex"]?.[0]?.message), /over the cost budget/)
        assert.deepStrictEqual(list(yield* send(key, "GET", "/admin/forms")), [])
        const created = yield* send(key, "POST", "/admin/forms", costly(-1))
        assert.strictEqual(created.status, 201, created.text)
        const form = data(created)
        const put = yield* send(key, "PUT", `/admin/forms/${String(form["id"])}`, { ...form, ...costly(1) }, { "if-match": '"1"' })
        assert.strictEqual(put.status, 422, put.text)
        assert.deepStrictEqual(Object.keys((json(put)["error"] as { fields: object }).fields), ["fields.1.validation_rules.regex"])
      }))

    it.effect("a change applies to the next save at once; a dropped slug is no longer accepted", () =>
      Effect.gen(function*() {
        const { key } = yield* newOrganisation
        const event = String(data(yield* send(key, "POST", "/admin/events", { name: "Fest" }))["id"])
        const form = data(yield* send(key, "POST", "/admin/forms", definition(event)))
        const token = String(form["public_token"])
        const draft = data(yield* newDraft(token, 2))
        const save = (values: Record<string, unknown>) =>
          call(`/public/forms/${token}/submissions/${String(draft["id"])}`, { method: "PUT", body: { values } })
        assert.strictEqual((yield* save({ nickname: "ada" })).status, 200)
        const fields = form["fields"] as ReadonlyArray<Record<string, unknown>>
        const withRegex = { ...form, fields: fields.map((f) => (f["slug"] === "nickname" ? { ...f, validation_rules: { regex: "^[A-Z]+$" } } : f)) }
        assert.strictEqual((yield* send(key, "PUT", `/admin/forms/${String(form["id"])}`, withRegex, { "if-match": '"1"' })).status, 200)
        const refused = yield* save({ nickname: "ada" })
        assert.strictEqual(refused.status, 422, refused.text)
        assert.strictEqual((yield* save({ nickname: "ADA" })).status, 200)
        // Dropped: the stored value stays, a new one is not accepted (dropped like any unknown slug).
        const without = { ...form, fields: fields.filter((f) => f["slug"] !== "nickname") }
        assert.strictEqual((yield* send(key, "PUT", `/admin/forms/${String(form["id"])}`, without, { "if-match": "*" })).status, 200)
        const after = yield* save({ nickname: "IGNORED" })
        assert.strictEqual(after.status, 200, after.text)
        assert.strictEqual((data(after)["values"] as Record<string, unknown>)["nickname"], "ADA")
        const submitted = yield* call(`/public/forms/${token}/submissions/${String(draft["id"])}/submit`, {
          method: "POST",
          body: { values: { email: "ada@example.org" } }
        })
        assert.strictEqual(submitted.status, 200, submitted.text)
        assert.deepStrictEqual(data(submitted)["values"], { nickname: "ADA", email: "ada@example.org" })
      }))

    it.effect("two PUTs of one revision at once: exactly one 200 and one 412", () =>
      Effect.gen(function*() {
        const { key } = yield* newOrganisation
        for (let round = 0; round < 5; round++) {
          const form = data(yield* send(key, "POST", "/admin/forms", { name: `F${round}`, type: "registration", event_id: null }))
          const put = (name: string) =>
            send(key, "PUT", `/admin/forms/${String(form["id"])}`, { ...form, name }, { "if-match": '"1"' })
          const answers = yield* Effect.all([put("A"), put("B")], { concurrency: "unbounded" })
          assert.deepStrictEqual(answers.map((r) => r.status).sort(), [200, 412], answers.map((r) => r.text).join("\n"))
          const stored = data(yield* send(key, "GET", `/admin/forms/${String(form["id"])}`))
          assert.strictEqual(stored["revision"], 2)
        }
      }))
  })
}

reportSkippedPostgres("organiser forms")
