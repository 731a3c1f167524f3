/** Sign-up windows through HTTP: rule `closed` at create, save and submit, in the rule order; shown in both lists. */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { adminCall, data, list } from "./adminSupport.js"
import { backends, reportSkippedPostgres } from "./backends.js"
import { call, dataOf, liveOptions, type RawResponse, testServer } from "./harness.js"
import { fileURLToPath } from "node:url"

const shiftsFixturePath = fileURLToPath(new URL("./shifts.fixture.json", import.meta.url))
const shiftsForm = "/public/forms/shifts-form-token-0001"

const organiserKey = "fok_shifts_test_key_0123456789abcdefghijklmnop"
const env = { FIXTURE_FILE: shiftsFixturePath, SUBMIT_RATE_LIMIT_PER_HOUR: "1000", WRITE_RATE_LIMIT_PER_HOUR: "1000" }

let counter = 0
const nextKey = () => `window-${String(++counter).padStart(6, "0")}-0123456789abcdef`
const rulesOf = (response: RawResponse) => {
  const fields = (JSON.parse(response.text) as { error: { fields?: Record<string, ReadonlyArray<{ rule: string }>> } }).error.fields ?? {}
  return Object.fromEntries(Object.entries(fields).map(([slug, errors]) => [slug, errors.map((e) => e.rule)]))
}
const create = (values: Record<string, unknown>) =>
  call(`${shiftsForm}/submissions`, { method: "POST", body: { idempotency_key: nextKey(), values } })
const draft = Effect.suspend(() => Effect.map(create({ email: "v@example.org" }), (r) => String(dataOf(r)["id"])))
const save = (id: string, values: Record<string, unknown>) =>
  call(`${shiftsForm}/submissions/${id}`, { method: "PUT", body: { values } })
const submit = (id: string, values: Record<string, unknown>) =>
  call(`${shiftsForm}/submissions/${id}/submit`, { method: "POST", body: { values } })
const setWindow = (slot: string, window: Record<string, unknown>) =>
  adminCall(organiserKey, "PATCH", `/admin/time-slots/${slot}`, window)

const hour = 3_600_000
const isoIn = (ms: number) => new Date(Date.now() + ms).toISOString()

for (const backend of backends) {
  layer(testServer(backend, env), liveOptions)(`sign-up windows (${backend})`, (it) => {
    it.effect("a slot not open yet is closed on create, save and submit, after in and before max and overlap", () =>
      Effect.gen(function*() {
        const opens = isoIn(24 * hour)
        const patched = yield* setWindow("sl-gate", { signup_opens_at: opens })
        assert.strictEqual(patched.status, 200)
        assert.deepStrictEqual([data(patched)["signup_opens_at"], data(patched)["signup_closes_at"]], [opens, null])
        const listed = list(yield* call(`${shiftsForm}/time-slots`)).find((s) => s["id"] === "sl-gate")
        assert.deepStrictEqual([listed?.["signup_opens_at"], listed?.["signup_closes_at"]], [opens, null])

        const created = yield* create({ email: "v@example.org", shifts: ["sl-gate"] })
        assert.deepStrictEqual([created.status, rulesOf(created)], [422, { shifts: ["closed"] }])
        const id = yield* draft
        const saved = yield* save(id, { shifts: ["nope", "sl-gate", "sl-stage", "sl-bar", "sl-free"] })
        assert.deepStrictEqual(rulesOf(saved), { shifts: ["in", "closed", "max", "overlap"] })
        const submitted = yield* submit(id, { shifts: ["sl-gate"] })
        assert.deepStrictEqual([submitted.status, rulesOf(submitted)], [422, { shifts: ["closed"] }])

        // Open now: the same draft submits.
        assert.strictEqual((yield* setWindow("sl-gate", { signup_opens_at: isoIn(-hour) })).status, 200)
        assert.strictEqual((yield* submit(id, { shifts: ["sl-gate"] })).status, 200)
      }))

    it.effect("a slot whose window has closed, or that has started, is closed; an invalid window member is 422 invalid", () =>
      Effect.gen(function*() {
        assert.strictEqual((yield* setWindow("sl-free", { signup_closes_at: isoIn(-hour) })).status, 200)
        const id = yield* draft
        const late = yield* submit(id, { shifts: ["sl-free"] })
        assert.deepStrictEqual(rulesOf(late), { shifts: ["closed"] }, late.text)
        // A slot that started (yesterday) closes without a window.
        const yesterday = new Date(Date.now() - 24 * hour).toISOString().slice(0, 10)
        assert.strictEqual((yield* adminCall(organiserKey, "PATCH", "/admin/time-slots/sl-race", { date: yesterday })).status, 200)
        const started = yield* save(id, { shifts: ["sl-race"] })
        assert.deepStrictEqual(rulesOf(started), { shifts: ["closed"] }, started.text)
        for (const bad of ["tomorrow", 5, "2027-01-01T00:00:00", true]) {
          const refused = yield* setWindow("sl-free", { signup_opens_at: bad })
          assert.deepStrictEqual([refused.status, rulesOf(refused)], [422, { signup_opens_at: ["invalid"] }], JSON.stringify(bad))
        }
      }))
  })
}

reportSkippedPostgres("sign-up windows")
