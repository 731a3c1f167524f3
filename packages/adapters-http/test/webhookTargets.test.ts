/**
 * Webhook targets over HTTP without private targets allowed: every host that is not public (a loopback or private
 * address, `localhost`, an IPv6 address embedding a private IPv4 one, the benchmarking range) gets one and the same
 * 422 message, in the create and in the PATCH answer; that message and an http target's name the setting that
 * allows them.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { OrganiserAccess, OrganiserLive, SubmissionsOutLive } from "@forms/domain"
import { InMemory, InMemoryOrganiser, InMemorySubmissionsOut } from "@forms/domain/memory"
import { AdminConfig } from "../src/index.js"
import { FakePublicForms } from "./FakePublicForms.js"
import { call, json, serverLayer } from "./harness.js"

const key = `fok_${"Wh7".repeat(14)}x`

const SeedKey = Layer.effectDiscard(Effect.gen(function*() {
  const access = yield* OrganiserAccess
  const organisation = yield* access.createOrganisation("Org")
  yield* access.createApiKey({ organisation_id: organisation.id, name: null, key, created_at: 0 })
}).pipe(Effect.orDie))
const admin = Layer.mergeAll(OrganiserLive.layer, SeedKey, SubmissionsOutLive.layer.pipe(Layer.provide(InMemorySubmissionsOut.layer))).pipe(
  Layer.provideMerge(InMemoryOrganiser.layer),
  Layer.provideMerge(InMemory.layer()),
  Layer.merge(AdminConfig.layer({ limitPerMinute: 600 }))
)
const auth = { authorization: `Bearer ${key}` }

const hosts = ["127.0.0.1", "[::1]", "localhost", "10.0.0.1", "169.254.169.254", "198.18.0.1", "[::ffff:0:10.0.0.1]",
  "[2002:a00:1::1]", "[64:ff9b::a00:1]", "[64:ff9b:1::a00:1]", "[2001:0:4136:e378:8000:63bf:f5ff:fffe]"]

const urlErrors = (text: string) => (JSON.parse(text) as { error: { fields: { url: ReadonlyArray<{ rule: string; message: string }> } } }).error.fields.url

layer(serverLayer(FakePublicForms, { admin }))("webhook targets that are not public", (it) => {
  it.effect("one 422 message for every one of them, in the create and in the PATCH answer", () =>
    Effect.gen(function*() {
      const answers = new Set<string>()
      for (const host of hosts) {
        const res = yield* call("/admin/webhooks", json("POST", { url: `https://${host}/in`, event_types: ["*"] }, auth))
        assert.strictEqual(res.status, 422, `${host}: ${res.text}`)
        for (const error of urlErrors(res.text)) answers.add(`${error.rule} ${error.message}`)
      }
      const created = yield* call("/admin/webhooks", json("POST", { url: "https://hooks.example.com/in", event_types: ["*"] }, auth))
      assert.strictEqual(created.status, 201, created.text)
      const id = String((JSON.parse(created.text) as { data: { id: string } }).data.id)
      for (const host of hosts) {
        const res = yield* call(`/admin/webhooks/${id}`, json("PATCH", { url: `https://${host}/in` }, auth))
        assert.strictEqual(res.status, 422, `${host}: ${res.text}`)
        for (const error of urlErrors(res.text)) answers.add(`${error.rule} ${error.message}`)
      }
      assert.deepStrictEqual([...answers], [
        "invalid Not a valid webhook target: the host has no address a webhook may connect to (loopback and private " +
        "addresses need WEBHOOK_ALLOW_PRIVATE_TARGETS=true on the server)."
      ])
    }))

  it.effect("an http target's 422 names the setting that allows it, in the create and in the PATCH answer", () =>
    Effect.gen(function*() {
      const expected = [{
        rule: "invalid",
        message: "Not a valid webhook target: only https URLs are allowed (http needs WEBHOOK_ALLOW_PRIVATE_TARGETS=true on the server)."
      }]
      const body = { url: "http://127.0.0.1:8080/hook", event_types: ["*"] }
      const created = yield* call("/admin/webhooks", json("POST", body, auth))
      assert.strictEqual(created.status, 422, created.text)
      assert.deepStrictEqual(urlErrors(created.text), expected)
      const hook = yield* call("/admin/webhooks", json("POST", { url: "https://hooks.example.com/in", event_types: ["*"] }, auth))
      const id = String((JSON.parse(hook.text) as { data: { id: string } }).data.id)
      const patched = yield* call(`/admin/webhooks/${id}`, json("PATCH", { url: body.url }, auth))
      assert.strictEqual(patched.status, 422, patched.text)
      assert.deepStrictEqual(urlErrors(patched.text), expected)
    }))
})
