import { assert, describe, it } from "@effect/vitest"
import { Redacted, Result } from "effect"
import { baseUrlOf, parseConfig } from "../src/config.js"

const problems = (env: Record<string, string>) => {
  const parsed = parseConfig(env, "/srv")
  return Result.isFailure(parsed) ? parsed.failure : []
}

describe("parseConfig", () => {
  it("gives the defaults of CONTRACT §11", () => {
    const parsed = parseConfig({}, "/srv")
    assert.isTrue(Result.isSuccess(parsed))
    if (Result.isFailure(parsed)) return
    const c = parsed.success
    assert.deepStrictEqual(
      [c.port, c.host, c.databaseUrl, c.dataDir, c.fixtureFile, c.tokenGraceSeconds, c.submitRateLimitPerHour],
      [3000, "127.0.0.1", undefined, "/srv/.data", undefined, 86_400, 10]
    )
    assert.deepStrictEqual(
      [c.portalRateLimitPerMinute, c.maxBodyBytes, c.trustProxyHops, c.maxValuesKeys, c.maxStringLength, c.maxArrayItems],
      [30, 262_144, 0, 500, 10_000, 200]
    )
    assert.strictEqual(c.logLevel, "info")
    assert.strictEqual(baseUrlOf(c), "http://127.0.0.1:3000")
  })

  it("reads every variable; relative paths follow INIT_CWD", () => {
    const parsed = parseConfig({
      PORT: "8080", HOST: "::1", DATABASE_URL: "postgres://u:secret@db:5432/forms", DATA_DIR: "data",
      FIXTURE_FILE: "f.json", INIT_CWD: "/repo", PUBLIC_BASE_URL: "https://forms.example.org/", LOG_LEVEL: "DEBUG",
      SUBMIT_RATE_LIMIT_PER_HOUR: "3", TRUST_PROXY_HOPS: "2", MAX_BODY_BYTES: "1024",
      WRITE_RATE_LIMIT_PER_HOUR: "50", RATE_LIMIT_EXEMPT_NETWORKS: "10.0.0.0/8, 2001:DB8::/32"
    }, "/srv")
    if (Result.isFailure(parsed)) return assert.fail(parsed.failure.join())
    const c = parsed.success
    assert.strictEqual(c.port, 8080)
    assert.strictEqual(c.dataDir, "/repo/data")
    assert.strictEqual(c.fixtureFile, "/repo/f.json")
    assert.strictEqual(c.databaseUrl === undefined ? "" : Redacted.value(c.databaseUrl), "postgres://u:secret@db:5432/forms")
    assert.strictEqual(baseUrlOf(c), "https://forms.example.org")
    assert.strictEqual(baseUrlOf({ ...c, publicBaseUrl: undefined }, 9), "http://[::1]:9")
    assert.deepStrictEqual([c.logLevel, c.submitRateLimitPerHour, c.trustProxyHops, c.maxBodyBytes], ["debug", 3, 2, 1024])
    assert.strictEqual(c.writeRateLimitPerHour, 50)
    assert.deepStrictEqual(c.exemptNetworks.networks, ["10.0.0.0/8", "2001:db8::/32"])
  })

  it("the webhook pool: 32 workers, 4 per endpoint, 8 per organisation by default; each read and bounded", () => {
    const parsed = parseConfig({})
    if (Result.isFailure(parsed)) return assert.fail(parsed.failure.join())
    const c = parsed.success
    assert.deepStrictEqual([c.webhookConcurrency, c.webhookEndpointConcurrency, c.webhookOrganisationConcurrency], [32, 4, 8])
    const set = parseConfig({ WEBHOOK_CONCURRENCY: "64", WEBHOOK_ENDPOINT_CONCURRENCY: "2", WEBHOOK_ORGANISATION_CONCURRENCY: "16" })
    if (Result.isFailure(set)) return assert.fail(set.failure.join())
    assert.deepStrictEqual([set.success.webhookConcurrency, set.success.webhookEndpointConcurrency, set.success.webhookOrganisationConcurrency], [64, 2, 16])
    const found = problems({ WEBHOOK_CONCURRENCY: "0", WEBHOOK_ENDPOINT_CONCURRENCY: "x", WEBHOOK_ORGANISATION_CONCURRENCY: "1001" })
    assert.deepStrictEqual(found.map((p) => p.split(" ")[0]), ["WEBHOOK_CONCURRENCY", "WEBHOOK_ENDPOINT_CONCURRENCY", "WEBHOOK_ORGANISATION_CONCURRENCY"])
  })

  it("the write limit defaults to 600 an hour and no network is exempt", () => {
    const parsed = parseConfig({})
    if (Result.isFailure(parsed)) return assert.fail(parsed.failure.join())
    assert.strictEqual(parsed.success.writeRateLimitPerHour, 600)
    assert.deepStrictEqual(parsed.success.exemptNetworks.networks, [])
  })

  it("a malformed exempt network or write limit names its variable", () => {
    const found = problems({ RATE_LIMIT_EXEMPT_NETWORKS: "10.0.0.0/8, 10.0.0.0/40", WRITE_RATE_LIMIT_PER_HOUR: "0" })
    assert.strictEqual(found.length, 2)
    assert.isTrue(found.some((p) => p.startsWith("RATE_LIMIT_EXEMPT_NETWORKS: ") && p.includes("10.0.0.0/40")))
    assert.isTrue(found.some((p) => p.startsWith("WRITE_RATE_LIMIT_PER_HOUR ")))
  })

  it("names each bad variable, all at once, never echoing DATABASE_URL", () => {
    const found = problems({
      PORT: "http", SUBMIT_RATE_LIMIT_PER_HOUR: "0", MAX_BODY_BYTES: "-5", LOG_LEVEL: "loud",
      DATABASE_URL: "mysql://u:secret@x/db", PUBLIC_BASE_URL: "ftp://x", TRUST_PROXY_HOPS: "1.5"
    })
    assert.strictEqual(found.length, 7)
    for (const name of ["PORT", "SUBMIT_RATE_LIMIT_PER_HOUR", "MAX_BODY_BYTES", "LOG_LEVEL", "DATABASE_URL", "PUBLIC_BASE_URL", "TRUST_PROXY_HOPS"]) {
      assert.isTrue(found.some((p) => p.startsWith(name + " ")), name)
    }
    assert.isFalse(found.join("\n").includes("secret"))
    assert.deepStrictEqual(problems({ PORT: "65536" }), [`PORT must be a whole number from 0 to 65535 (got "65536").`])
  })
})
