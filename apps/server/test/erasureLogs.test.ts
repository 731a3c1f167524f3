/**
 * Values never reach the logs of the "Submissions out" routes, at debug level either: a submit, its handlers,
 * the listing, the export and the erasure of a submission carrying a marker value, with every log line captured.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer, Logger, References } from "effect"
import { EmbeddedPg } from "@forms/adapters-sql"
import { formatLine } from "../src/logging.js"
import { Server } from "../src/index.js"
import { adminCall, data, keyOf } from "./adminSupport.js"
import { call, dataOf, eventually, liveOptions, testConfig } from "./harness.js"

const logged: Array<string> = []
const Capture = Layer.mergeAll(
  Logger.layer([Logger.make((options) => void logged.push(formatLine(options)))]),
  Layer.succeed(References.MinimumLogLevel, "Debug")
)
const server = Server.layer(testConfig({ LOG_LEVEL: "debug" }), { database: EmbeddedPg.layer() }).pipe(Layer.provide(Capture))

layer(server, liveOptions)("logs of submissions out (embedded, debug)", (it) => {
  it.effect("a submission's values appear in no log line through submit, listing, export and erasure", () =>
    Effect.gen(function*() {
      const { key } = yield* keyOf("org-t")
      const marker = `logmark${Date.now().toString(36)}`
      const form = "/public/forms/test-open-token-0001"
      const created = yield* call(`${form}/submissions`, { method: "POST", body: { idempotency_key: `logs-${marker}` } })
      const id = String(dataOf(created)["id"])
      assert.strictEqual((yield* call(`${form}/submissions/${id}/submit`, { method: "POST", body: { values: { email: `${marker}@example.org` } } })).status, 200)
      yield* eventually(Effect.map(adminCall(key, "GET", `/admin/submissions/${id}`), data), (s) => s["contact_id"] !== null)
      assert.include((yield* adminCall(key, "GET", "/admin/forms/fs-open/submissions")).text, marker)
      assert.include((yield* adminCall(key, "GET", "/admin/forms/fs-open/export")).text, marker)
      assert.include((yield* adminCall(key, "GET", `/admin/contacts?email=${marker}@example.org`)).text, marker)
      assert.strictEqual((yield* adminCall(key, "DELETE", `/admin/submissions/${id}`)).status, 204)
      assert.isAbove(logged.length, 5)
      assert.deepStrictEqual(logged.filter((line) => line.toLowerCase().includes(marker)), [])
    }))
})
