import { assert, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { loadFixture } from "../src/fixture/loadFixture.js"
import { hashApiKey } from "../src/organiser/catalog/SqlOrganiserAccess.js"
import { embeddedPorts } from "./support.js"

const key = `fok_fixture_${"k".repeat(30)}`
const fixture = (keys: unknown) => ({
  organisations: [{ id: "org-keys", name: "Keys" }],
  api_keys: keys
})

layer(embeddedPorts, { timeout: "60 seconds" })("fixture api_keys", (it) => {
  it.effect("are stored as SHA-256 hashes only, upserted by id: loading twice changes nothing", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const first = yield* loadFixture(fixture([{ id: "key-1", organisation_id: "org-keys", name: "CI", key }]))
      assert.strictEqual(first.records["api_keys"], 1)
      const rows = yield* sql<Record<string, unknown>>`SELECT * FROM api_keys WHERE id = 'key-1'`
      assert.strictEqual(rows[0]?.["key_hash"], hashApiKey(key))
      assert.strictEqual(rows[0]?.["prefix"], key.slice(0, 8))
      expect(JSON.stringify(rows)).not.toContain(key.slice(8))
      const again = yield* loadFixture(fixture([{ id: "key-1", organisation_id: "org-keys", name: "CI", key }]))
      assert.strictEqual(again.changed, 0)
    }))

  it.effect("a short key or an unknown organisation refuses the fixture, without the key in the message", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(loadFixture(fixture([
        { id: "key-2", organisation_id: "org-keys", key: "too-short-secret" },
        { id: "key-3", organisation_id: "org-nope", key }
      ])))
      assert.strictEqual(error._tag, "FixtureRejected")
      const text = error._tag === "FixtureRejected" ? error.problems.join("\n") : ""
      expect(text).toContain("api_keys[0]")
      expect(text).toContain(`organisation_id "org-nope"`)
      expect(text).not.toContain("too-short-secret")
      expect(text).not.toContain(key)
      const sql = yield* SqlClient.SqlClient
      assert.strictEqual((yield* sql`SELECT id FROM api_keys WHERE id IN ('key-2', 'key-3')`).length, 0)
    }))
})
