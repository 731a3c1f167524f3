import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { backends, reportSkippedPostgres } from "./backends.js"
import { call, dataOf, liveOptions, type RawResponse, testServer } from "./harness.js"

const open = "/public/forms/test-open-token-0001"
const key = (n: number) => `race-${String(n).padStart(4, "0")}-0123456789abcdef`
const createDraft = (n: number) =>
  Effect.map(call(`${open}/submissions`, { method: "POST", body: { idempotency_key: key(n) } }), (r) => String(dataOf(r)["id"]))
const statuses = (responses: ReadonlyArray<RawResponse>) => responses.map((r) => r.status).sort()

for (const backend of backends) {
  // The submit limit is raised so that every racing request reaches the state check.
  layer(testServer(backend, { SUBMIT_RATE_LIMIT_PER_HOUR: "1000", WRITE_RATE_LIMIT_PER_HOUR: "1000" }), liveOptions)(`concurrency (${backend})`, (it) => {
    it.effect("30 concurrent creates with one key: one id, exactly one 201", () =>
      Effect.gen(function*() {
        const answers = yield* Effect.all(
          Array.from({ length: 30 }, () => call(`${open}/submissions`, { method: "POST", body: { idempotency_key: key(2) } })),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(answers.filter((r) => r.status === 201).length, 1)
        assert.strictEqual(answers.filter((r) => r.status === 200).length, 29)
        assert.strictEqual(new Set(answers.map((r) => dataOf(r)["id"])).size, 1)
      }))

    it.effect("20 concurrent submits of one draft: one 200, the rest 409", () =>
      Effect.gen(function*() {
        const form = "/public/forms/test-registration-0001"
        const created = yield* call(`${form}/submissions`, { method: "POST", body: { idempotency_key: key(3) } })
        const id = String(dataOf(created)["id"])
        const answers = yield* Effect.all(
          Array.from({ length: 20 }, () => call(`${form}/submissions/${id}/submit`, { method: "POST" })),
          { concurrency: "unbounded" }
        )
        assert.deepStrictEqual(statuses(answers), [200, ...Array(19).fill(409)])
      }))

    // With a unique field, the losers must still see 409: the value is held by this very submission.
    it.effect("20 concurrent submits of one draft with a unique value: one 200, the rest 409", () =>
      Effect.gen(function*() {
        const id = yield* createDraft(4)
        const answers = yield* Effect.all(
          Array.from({ length: 20 }, () =>
            call(`${open}/submissions/${id}/submit`, { method: "POST", body: { values: { email: "race@example.org" } } })),
          { concurrency: "unbounded" }
        )
        assert.deepStrictEqual(statuses(answers), [200, ...Array(19).fill(409)])
      }))
  })
}

reportSkippedPostgres("concurrency")
