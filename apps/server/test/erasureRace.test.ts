import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { adminCall, keyOf } from "./adminSupport.js"
import { backends, reportSkippedPostgres } from "./backends.js"
import { call, dataOf, eventually, liveOptions, testServer } from "./harness.js"
import { tablesContaining } from "./submissionsOutSupport.js"

const env = { SUBMIT_RATE_LIMIT_PER_HOUR: "10000", WRITE_RATE_LIMIT_PER_HOUR: "10000" }
const form = "/public/forms/test-open-token-0001"

for (const backend of backends) {
  layer(testServer(backend, env), liveOptions)(`erasure racing a submit (${backend})`, (it) => {
    it.effect("an erasure and a submit of the same draft sent at once: one wins cleanly, nothing half-done (10 rounds)", () =>
      Effect.gen(function*() {
        const { key } = yield* keyOf("org-t")
        const outcomes: Array<string> = []
        for (let round = 0; round < 10; round++) {
          const marker = `race${Date.now().toString(36)}${round}x${Math.random().toString(36).slice(2, 7)}`
          const email = `${marker}@example.org`
          const created = yield* call(`${form}/submissions`, { method: "POST", body: { idempotency_key: `race-${marker}` } })
          const id = String(dataOf(created)["id"])
          const [submitted, erased] = yield* Effect.all([
            call(`${form}/submissions/${id}/submit`, { method: "POST", body: { values: { email, shirt: "S" } } }),
            adminCall(key, "DELETE", `/admin/submissions/${id}`)
          ], { concurrency: "unbounded" })
          // The erasure always finds the submission (draft or submitted); the submit either came first or finds nothing.
          assert.strictEqual(erased.status, 204, erased.text)
          assert.include([200, 404], submitted.status, submitted.text)
          if (submitted.status === 404) assert.include(submitted.text, "SUBMISSION_NOT_FOUND")
          outcomes.push(submitted.status === 200 ? "submit first" : "erase first")
          assert.strictEqual((yield* adminCall(key, "GET", `/admin/submissions/${id}`)).status, 404)
          // Whatever the order, and once the handlers of a submit that came first have run: nothing of the value left.
          yield* eventually(tablesContaining(marker), (r) => r.found.length === 0)
          // The unique value is free: a new submission claims it.
          const next = yield* call(`${form}/submissions`, { method: "POST", body: { idempotency_key: `next-${marker}` } })
          const again = yield* call(`${form}/submissions/${String(dataOf(next)["id"])}/submit`, { method: "POST", body: { values: { email } } })
          assert.strictEqual(again.status, 200, again.text)
        }
        assert.strictEqual(outcomes.length, 10)
      }))
  })
}

reportSkippedPostgres("Erasure racing a submit")
