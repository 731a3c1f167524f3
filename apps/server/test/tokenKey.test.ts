/**
 * Where the token key is kept without TOKEN_KEY: a file beside the embedded database (made once, readable by its
 * owner only, then reused), or one row of `token_keys` on PostgreSQL that every process reads (racing first
 * uses agree on one key). A malformed TOKEN_KEY is refused at start-up without echoing it.
 */
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect, Result } from "effect"
import { mkdtempSync, readFileSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { newTokenKey } from "@forms/adapters-http"
import { EmbeddedPg, Migrations, sqlTokenKey } from "@forms/adapters-sql"
import { parseConfig } from "../src/config.js"
import { fileTokenKey, tokenKeyFile } from "../src/tokenKey.js"
import { backends, reportSkippedPostgres } from "./backends.js"
import { isolatedSchema, testDatabaseUrl } from "./harness.js"

describe("the token key", () => {
  it.effect("a file beside the embedded data: made once with mode 0600, the same key on every later start", () =>
    Effect.gen(function*() {
      const dir = mkdtempSync(join(tmpdir(), "forms-token-key-"))
      const first = yield* fileTokenKey(tokenKeyFile(dir))
      const second = yield* fileTokenKey(tokenKeyFile(dir))
      assert.strictEqual(first.length, 32)
      assert.deepStrictEqual([...second], [...first])
      assert.strictEqual(statSync(tokenKeyFile(dir)).mode & 0o777, 0o600)
      assert.strictEqual(Buffer.from(readFileSync(tokenKeyFile(dir), "utf8").trim(), "base64").length, 32)
    }))

  it("TOKEN_KEY must be 32 bytes in base64; a bad one is refused without being echoed", () => {
    const good = parseConfig({ TOKEN_KEY: newTokenKey() })
    assert.isTrue(Result.isSuccess(good))
    const bad = parseConfig({ TOKEN_KEY: "secret-but-too-short" })
    assert.isTrue(Result.isFailure(bad))
    if (Result.isFailure(bad)) {
      assert.include(JSON.stringify(bad.failure), "TOKEN_KEY must be 32 bytes in base64")
      assert.notInclude(JSON.stringify(bad.failure), "secret-but-too-short")
    }
  })
})

for (const backend of backends) {
  const database = backend === "embedded" || testDatabaseUrl === undefined
    ? EmbeddedPg.layer()
    : isolatedSchema(testDatabaseUrl, `token_key_${Date.now()}_${Math.floor(Math.random() * 1e6)}`)
  layer(database, { timeout: 120_000, excludeTestServices: true })(`the token key in the database (${backend})`, (it) => {
    it.effect("racing first uses store one key and every caller reads that one", () =>
      Effect.gen(function*() {
        yield* Migrations.run
        const fresh = Array.from({ length: 8 }, () => newTokenKey())
        const read = yield* Effect.forEach(fresh, (key) => sqlTokenKey(key), { concurrency: "unbounded" })
        assert.strictEqual(new Set(read).size, 1)
        assert.include(fresh, read[0])
        assert.strictEqual(yield* sqlTokenKey(newTokenKey()), read[0])
      }))
  })
}
reportSkippedPostgres("the token key in the database")
