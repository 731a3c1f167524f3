/**
 * Form logic (CONTRACT §18) on the whole server, PGlite and PostgreSQL: conditions and help through POST, GET and
 * PUT of the organiser API and the public form; every definition problem at its path with rule `logic`; a
 * required inactive field blocking nothing, active giving `required`; an inactive value sent at submit kept out of
 * the submission, the organiser's read and the CSV export; an inactive unique value not claimed.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { backends, reportSkippedPostgres } from "./backends.js"
import { bearer, data, json, newOrganisation } from "./adminSupport.js"
import { call, liveOptions, type RawResponse, testServer } from "./harness.js"

const send = (key: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  call(path, { method, headers: { ...bearer(key), ...headers }, ...(body === undefined ? {} : { body }) })

const licence = { "==": [{ var: "has_licence" }, true] }

const definition = (eventId: string) => ({
  name: "Drivers",
  type: "registration",
  event_id: eventId,
  status: "published",
  sections: [{ id: "car", name: "Your car", visible_if: { "!!": [{ var: "categories" }] } }],
  fields: [
    { slug: "email", label: "Email", type: "email", is_required: true, help: "We write to you here.", position: 1 },
    { slug: "has_licence", label: "Do you have a driving licence?", type: "boolean", is_required: true, position: 2 },
    { slug: "categories", label: "Which categories?", type: "checkboxes", options: ["A", "B"], is_required: true, visible_if: licence, position: 3 },
    { slug: "plate", label: "Plate", type: "text", section_id: "car", is_required: true, is_unique: true, position: 4 },
    { slug: "ref", label: "Ref", type: "hidden", position: 5 }
  ]
})

const rulesOf = (res: RawResponse) =>
  Object.fromEntries(Object.entries((json(res)["error"] as { fields: Record<string, ReadonlyArray<{ rule: string }>> }).fields)
    .map(([k, v]) => [k, v.map((e) => e.rule)]))

for (const backend of backends) {
  layer(testServer(backend), liveOptions)(`form logic (${backend})`, (it) => {
    it.effect("conditions and help round-trip through POST, GET and PUT, and show in the public form", () =>
      Effect.gen(function*() {
        const { key } = yield* newOrganisation
        const event = String(data(yield* send(key, "POST", "/admin/events", { name: "Fest" }))["id"])
        const created = yield* send(key, "POST", "/admin/forms", definition(event))
        assert.strictEqual(created.status, 201, created.text)
        const form = data(created)
        const fields = form["fields"] as ReadonlyArray<Record<string, unknown>>
        assert.deepStrictEqual(fields.map((f) => [f["slug"], f["visible_if"], f["help"]]), [
          ["email", null, "We write to you here."],
          ["has_licence", null, null],
          ["categories", licence, null],
          ["plate", null, null],
          ["ref", null, null]
        ])
        assert.deepStrictEqual((form["sections"] as ReadonlyArray<Record<string, unknown>>)[0]?.["visible_if"], { "!!": [{ var: "categories" }] })
        const put = yield* send(key, "PUT", `/admin/forms/${String(form["id"])}`, form, { "if-match": '"1"' })
        assert.strictEqual(put.status, 200, put.text)
        const again = data(put)
        assert.deepStrictEqual([again["sections"], again["fields"]], [form["sections"], form["fields"]])
        const pub = json(yield* call(`/public/forms/${String(form["public_token"])}`))["data"] as Record<string, unknown>
        const section = (pub["sections"] as ReadonlyArray<Record<string, unknown>>)[0] as Record<string, unknown>
        assert.deepStrictEqual(section["visible_if"], { "!!": [{ var: "categories" }] })
        const loose = pub["fields"] as ReadonlyArray<Record<string, unknown>>
        assert.deepStrictEqual(loose.map((f) => [f["slug"], f["visible_if"], f["help"]]), [
          ["email", null, "We write to you here."],
          ["has_licence", null, null],
          ["categories", licence, null],
          ["ref", null, null]
        ])
      }))

    it.effect("every problem of the conditions at once, at its path with rule logic; nothing written", () =>
      Effect.gen(function*() {
        const { key } = yield* newOrganisation
        const res = yield* send(key, "POST", "/admin/forms", {
          name: "F", type: "registration", event_id: null,
          sections: [{ id: "s", name: "S", visible_if: { "==": [{ var: "b" }, 1] } }],
          fields: [
            { slug: "a", label: "A", type: "text", visible_if: { cat: ["x"] } },
            { slug: "b", label: "B", type: "text", section_id: "s", visible_if: { var: "c" } },
            { slug: "c", label: "C", type: "text", visible_if: { var: "d" } },
            { slug: "d", label: "D", type: "text", visible_if: { var: "c" } },
            { slug: "e", label: "E", type: "text", visible_if: { var: "a.b" }, help: "h".repeat(1001) },
            { slug: "f", label: "F", type: "hidden", is_required: true }
          ]
        })
        assert.strictEqual(res.status, 422, res.text)
        assert.deepStrictEqual(rulesOf(res), {
          "fields.4.help": ["max"],
          "fields.5.is_required": ["invalid"],
          "sections.0.visible_if": ["logic"],
          "fields.0.visible_if": ["logic"],
          "fields.4.visible_if": ["logic"],
          "fields.2.visible_if": ["logic"],
          "fields.3.visible_if": ["logic"]
        })
      }))

    it.effect("submit: inactive fields are not required; a value sent for one is not stored, read or exported; no claim", () =>
      Effect.gen(function*() {
        const { key } = yield* newOrganisation
        const event = String(data(yield* send(key, "POST", "/admin/events", { name: "Fest" }))["id"])
        const form = data(yield* send(key, "POST", "/admin/forms", definition(event)))
        const base = `/public/forms/${String(form["public_token"])}/submissions`
        const draft = (n: number) =>
          Effect.map(call(base, { method: "POST", body: { idempotency_key: `logic-key-${n}-${Math.random()}` } }), (r) => String(data(r)["id"]))

        // Active: the same fields are required.
        const first = yield* draft(1)
        const refused = yield* call(`${base}/${first}/submit`, { method: "POST", body: { values: { email: "a@b.nl", has_licence: true } } })
        assert.strictEqual(refused.status, 422, refused.text)
        assert.deepStrictEqual(rulesOf(refused), { categories: ["required"] })
        const refusedCar = yield* call(`${base}/${first}/submit`, {
          method: "POST", body: { values: { email: "a@b.nl", has_licence: true, categories: ["B"] } }
        })
        assert.deepStrictEqual(rulesOf(refusedCar), { plate: ["required"] })

        // Inactive: "no" hides categories and, through it, the car section; what is sent for them is dropped.
        const sent = { email: "a@b.nl", has_licence: "false", categories: ["B"], plate: "XX-1", ref: "newsletter" }
        const ok = yield* call(`${base}/${first}/submit`, { method: "POST", body: { values: sent } })
        assert.strictEqual(ok.status, 200, ok.text)
        assert.deepStrictEqual(data(ok)["values"], { email: "a@b.nl", has_licence: "false", ref: "newsletter" })
        const read = yield* send(key, "GET", `/admin/submissions/${first}`)
        assert.deepStrictEqual(data(read)["values"], { email: "a@b.nl", has_licence: "false", ref: "newsletter" })
        const csv = (yield* send(key, "GET", `/admin/forms/${String(form["id"])}/export`)).text
        assert.notInclude(csv, "XX-1")

        // The plate was not claimed: an active one with the same value submits.
        const second = yield* draft(2)
        const active = yield* call(`${base}/${second}/submit`, {
          method: "POST", body: { values: { email: "c@d.nl", has_licence: "1", categories: ["A"], plate: "XX-1" } }
        })
        assert.strictEqual(active.status, 200, active.text)
        assert.strictEqual((data(active)["values"] as Record<string, unknown>)["plate"], "XX-1")
      }))

    it.effect("an inactive time-slot field takes no place; active, the same choice takes it", () =>
      Effect.gen(function*() {
        const { key } = yield* newOrganisation
        const event = String(data(yield* send(key, "POST", "/admin/events", { name: "Fest" }))["id"])
        const slot = data(yield* send(key, "POST", `/admin/events/${event}/time-slots`, {
          name: "Gate", date: "2027-08-20", start_time: "08:00", end_time: "12:00", capacity: 1
        }))
        const created = yield* send(key, "POST", "/admin/forms", {
          name: "Crew", type: "volunteer", event_id: event, status: "published",
          fields: [
            { slug: "email", label: "Email", type: "email", is_required: true, position: 1 },
            { slug: "helps", label: "Will you help?", type: "boolean", position: 2 },
            { slug: "shifts", label: "Shifts", type: "time_slots", is_required: true, position: 3, visible_if: { var: "helps" } }
          ]
        })
        assert.strictEqual(created.status, 201, created.text)
        const base = `/public/forms/${String(data(created)["public_token"])}/submissions`
        const submit = (n: number, values: Record<string, unknown>) =>
          Effect.gen(function*() {
            const draft = yield* call(base, { method: "POST", body: { idempotency_key: `logic-slot-${n}-${Math.random()}` } })
            return yield* call(`${base}/${String(data(draft)["id"])}/submit`, { method: "POST", body: { values } })
          })
        const remaining = Effect.map(send(key, "GET", `/admin/events/${event}/time-slots`), (r) =>
          (json(r)["data"] as ReadonlyArray<Record<string, unknown>>)[0]?.["remaining"])
        const inactive = yield* submit(1, { email: "a@b.nl", helps: false, shifts: [slot["id"]] })
        assert.strictEqual(inactive.status, 200, inactive.text)
        assert.deepStrictEqual(data(inactive)["values"], { email: "a@b.nl", helps: false })
        assert.strictEqual(yield* remaining, 1)
        const active = yield* submit(2, { email: "c@d.nl", helps: true, shifts: [slot["id"]] })
        assert.strictEqual(active.status, 200, active.text)
        assert.strictEqual(yield* remaining, 0)
      }))
  })
}

reportSkippedPostgres("form logic")
