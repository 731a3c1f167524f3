import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { backends, reportSkippedPostgres } from "./backends.js"
import { call, dataOf, envelope, liveOptions, testServer } from "./harness.js"

const open = "/public/forms/test-open-token-0001"
const key = (n: number) => `key-${String(n).padStart(4, "0")}-0123456789abcdef`
const formNotFound = envelope("FORM_NOT_FOUND", "No published form has this token.")
const submissionNotFound = envelope("SUBMISSION_NOT_FOUND", "This form has no submission with this id.")
const already = envelope("SUBMISSION_ALREADY_SUBMITTED", "This submission has already been submitted.")
const closed = envelope("FORM_CLOSED", "This form does not accept submissions.")
const failed = (fields: unknown) => envelope("VALIDATION_FAILED", "One or more values are invalid.", fields)

const create = (path: string, body: unknown) => call(`${path}/submissions`, { method: "POST", body })

for (const backend of backends) {
  layer(testServer(backend, { SUBMIT_RATE_LIMIT_PER_HOUR: "1000", WRITE_RATE_LIMIT_PER_HOUR: "1000" }), liveOptions)(`public forms (${backend})`, (it) => {
    describe("GET form, time slots, sections", () => {
      it.effect("answer published public forms; anything else is 404 FORM_NOT_FOUND", () =>
        Effect.gen(function*() {
          const form = yield* call(open)
          assert.strictEqual(form.status, 200)
          assert.strictEqual(dataOf(form)["accepts_submissions"], true)
          const closedForm = yield* call("/public/forms/test-closed-token-0001")
          assert.strictEqual(dataOf(closedForm)["accepts_submissions"], false)
          for (const token of ["nope", "test-draft-token-0001", "test-advance-token-0001"]) {
            for (const suffix of ["", "/time-slots", "/sections", "/submissions/x"]) {
              const res = yield* call(`/public/forms/${token}${suffix}`, suffix.startsWith("/submissions") ? { method: "PUT", body: {} } : {})
              assert.strictEqual(res.status, 404, token + suffix)
              assert.strictEqual(res.text, formNotFound)
            }
          }
        }))

      it.effect("time slots are festival-aware and for volunteer forms only; sections are listed", () =>
        Effect.gen(function*() {
          const slots = yield* call(`${open}/time-slots`)
          assert.deepStrictEqual(dataOf(slots), [{
            id: "ts-1",
            name: "Night",
            date: "2027-08-20",
            start_time: "22:00",
            end_time: "02:00",
            starts_at: "2027-08-20T22:00:00.000Z",
            ends_at: "2027-08-21T02:00:00.000Z",
            duration_hours: 4,
            signup_opens_at: null,
            signup_closes_at: null,
            event_id: "ev-t-child",
            event_name: "Test day",
            capacity: null,
            remaining: null,
            waitlist: false,
            waitlisted: 0
          }] as unknown as Record<string, unknown>)
          const none = yield* call("/public/forms/test-registration-0001/time-slots")
          assert.strictEqual(none.status, 404)
          assert.strictEqual(none.text, envelope("TIME_SLOTS_NOT_AVAILABLE", "Time slots are only available for volunteer forms."))
          const sections = yield* call(`${open}/sections`)
          assert.strictEqual(sections.text, `{"data":[{"id":"es-1","name":"Bar","type":"standard","position":1}]}`)
        }))
    })

    describe("create, save, submit", () => {
      it.effect("create is 201, a replay 200 with the stored state; the key is per form", () =>
        Effect.gen(function*() {
          const first = yield* create(open, { idempotency_key: key(1), values: { shirt: "S", status: "submitted" } })
          assert.strictEqual(first.status, 201)
          const draft = dataOf(first)
          assert.deepStrictEqual(draft["values"], { shirt: "S" })
          assert.strictEqual(draft["status"], "draft")
          const replay = yield* create(open, { idempotency_key: key(1), values: { shirt: "M" } })
          assert.strictEqual(replay.status, 200)
          assert.strictEqual(replay.text, first.text)
          const other = yield* create("/public/forms/test-registration-0001", { idempotency_key: key(1) })
          assert.strictEqual(other.status, 201)
          assert.notStrictEqual(dataOf(other)["id"], draft["id"])
        }))

      it.effect("create on a closed form is 409, invalid values 422 (relaxed: required is not checked)", () =>
        Effect.gen(function*() {
          const res = yield* create("/public/forms/test-closed-token-0001", { idempotency_key: key(2) })
          assert.strictEqual(res.status, 409)
          assert.strictEqual(res.text, closed)
          const invalid = yield* create(open, { idempotency_key: key(3), values: { email: "nope", shirt: "XL" } })
          assert.strictEqual(invalid.status, 422)
          assert.strictEqual(invalid.text, failed({
            email: [{ rule: "email", message: "Must be a valid email address." }],
            shirt: [{ rule: "in", message: "Must be one of the allowed options." }]
          }))
          const missingKey = yield* create(open, { values: {} })
          assert.strictEqual(missingKey.text, failed({ idempotency_key: [{ rule: "required", message: "This field is required." }] }))
        }))

      it.effect("save counts, submit validates strictly, then 409 for both", () =>
        Effect.gen(function*() {
          const id = String(dataOf(yield* create(open, { idempotency_key: key(4) }))["id"])
          const saved = yield* call(`${open}/submissions/${id}`, { method: "PUT", body: { values: { shirt: "M" } } })
          assert.strictEqual(saved.status, 200)
          assert.strictEqual(dataOf(saved)["auto_save_count"], 1)
          const missing = yield* call(`${open}/submissions/${id}/submit`, { method: "POST" })
          assert.strictEqual(missing.status, 422)
          assert.strictEqual(missing.text, failed({ email: [{ rule: "required", message: "This field is required." }] }))
          const done = yield* call(`${open}/submissions/${id}/submit`, { method: "POST", body: { values: { email: "Ann@Example.org" } } })
          assert.strictEqual(done.status, 200)
          const submitted = dataOf(done)
          assert.strictEqual(submitted["status"], "submitted")
          assert.deepStrictEqual(submitted["values"], { shirt: "M", email: "Ann@Example.org" })
          assert.strictEqual(submitted["auto_save_count"], 1)
          assert.match(String(submitted["submitted_at"]), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
          const again = yield* call(`${open}/submissions/${id}/submit`, { method: "POST" })
          assert.strictEqual(again.status, 409)
          assert.strictEqual(again.text, already)
          const save = yield* call(`${open}/submissions/${id}`, { method: "PUT", body: {} })
          assert.strictEqual(save.text, already)
          // the same email, in other case, on another submission: unique
          const second = String(dataOf(yield* create(open, { idempotency_key: key(5) }))["id"])
          const dup = yield* call(`${open}/submissions/${second}/submit`, { method: "POST", body: { values: { email: "ann@example.org" } } })
          assert.strictEqual(dup.text, failed({ email: [{ rule: "unique", message: "This value has already been used." }] }))
        }))

      it.effect("a refused submit names every problem at once: the body's errors beside the merged map's", () =>
        Effect.gen(function*() {
          const id = String(dataOf(yield* create(open, { idempotency_key: key(7) }))["id"])
          const refused = yield* call(`${open}/submissions/${id}/submit`, { method: "POST", body: { values: { shirt: "XL" } } })
          assert.strictEqual(refused.status, 422)
          assert.strictEqual(
            refused.text,
            failed({
              email: [{ rule: "required", message: "This field is required." }],
              shirt: [{ rule: "in", message: "Must be one of the allowed options." }]
            })
          )
          // fixing both at once submits: no second round of errors
          const done = yield* call(`${open}/submissions/${id}/submit`, { method: "POST", body: { values: { shirt: "S", email: "round@example.org" } } })
          assert.strictEqual(done.status, 200)
        }))

      it.effect("unknown ids, malformed ids and ids of another form are one 404", () =>
        Effect.gen(function*() {
          const foreign = String(dataOf(yield* create("/public/forms/test-registration-0001", { idempotency_key: key(6) }))["id"])
          for (const id of ["not-a-uuid", "00000000-0000-4000-8000-000000000000", foreign]) {
            const save = yield* call(`${open}/submissions/${id}`, { method: "PUT", body: {} })
            assert.strictEqual(save.status, 404)
            assert.strictEqual(save.text, submissionNotFound)
            const submit = yield* call(`${open}/submissions/${id}/submit`, { method: "POST" })
            assert.strictEqual(submit.text, submissionNotFound)
          }
        }))

      it.effect("request shape before lookups: 404 route, 405, 415, 413, 400, 422", () =>
        Effect.gen(function*() {
          assert.strictEqual((yield* call("/public")).text, envelope("NOT_FOUND", "No such route."))
          const method = yield* call(`${open}/sections`, { method: "POST", body: {} })
          assert.strictEqual(method.text, envelope("METHOD_NOT_ALLOWED", "This route does not allow this method."))
          const media = yield* call("/public/forms/nope/submissions", { method: "POST", raw: "{}", headers: { "content-type": "text/plain" } })
          assert.strictEqual(media.text, envelope("UNSUPPORTED_MEDIA_TYPE", "A request body must be sent as application/json."))
          const large = yield* call("/public/forms/nope/submissions", { method: "POST", raw: JSON.stringify({ v: "x".repeat(262_144) }) })
          assert.strictEqual(large.text, envelope("PAYLOAD_TOO_LARGE", "The request body is too large."))
          const malformed = yield* call("/public/forms/nope/submissions/x/submit", { method: "POST", raw: "{\"values\":" })
          assert.strictEqual(malformed.text, envelope("MALFORMED_JSON", "The request body must be a JSON object."))
          const shape = yield* call("/public/forms/nope/submissions/x", { method: "PUT", body: { values: "text" } })
          assert.strictEqual(shape.text, failed({ values: [{ rule: "invalid", message: "Must be an object mapping field slugs to values." }] }))
        }))
    })
  })
}

reportSkippedPostgres("public forms")
