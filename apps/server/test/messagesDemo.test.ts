/**
 * The bundled demo form asks for a confirmation: after a submit, the demo organiser key lists it `held` (no mail
 * server in the demo), addressed to the address typed, filled from the answers. On PGlite, as `pnpm start` runs it.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { fileURLToPath } from "node:url"
import demoFixture from "../src/demo-fixture.json" with { type: "json" }
import { adminCall, data, list } from "./adminSupport.js"
import { call, liveOptions, testServer } from "./harness.js"

const demoFixturePath = fileURLToPath(new URL("../src/demo-fixture.json", import.meta.url))
const form = demoFixture.form_schemas.find((f) => f.id === "fs-volunteers")
const demoKey = demoFixture.api_keys?.[0]?.key ?? ""

layer(testServer("embedded", { FIXTURE_FILE: demoFixturePath }), liveOptions)("the demo's confirmation", (it) => {
  it.effect("a submit of the demo volunteer form records a held confirmation the demo key sees", () =>
    Effect.gen(function*() {
      const base = `/public/forms/${String(form?.public_token)}/submissions`
      const draft = data(yield* call(base, { method: "POST", body: { idempotency_key: "demo-confirmation-0001" } }))
      const submitted = yield* call(`${base}/${String(draft["id"])}/submit`, {
        method: "POST",
        body: { values: { full_name: "Ada Lovelace", email: "ada@example.org", shirt_size: "M" } }
      })
      assert.strictEqual(submitted.status, 200, submitted.text)
      const messages = list(yield* adminCall(demoKey, "GET", `/admin/messages?submission_id=${String(draft["id"])}`))
      assert.deepStrictEqual(messages.map((m) => [m["kind"], m["to"], m["status"], m["subject"]]), [
        ["confirmation", "ada@example.org", "held", "Thanks for signing up, Ada Lovelace"]
      ])
      const one = data(yield* adminCall(demoKey, "GET", `/admin/messages/${String(messages[0]?.["id"])}`))
      assert.include(String(one["body"]), "Hello Ada Lovelace,")
      assert.include(String(one["body"]), "Email: ada@example.org")
    }))
})
