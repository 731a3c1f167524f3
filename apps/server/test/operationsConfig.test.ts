/** The operations variables: METRICS_PORT, OTEL_*, FILES_DIR, BACKUP_*; off by default, each bad value named. */
import { assert, describe, it } from "@effect/vitest"
import { Redacted, Result } from "effect"
import { parseConfig } from "../src/config.js"

const problems = (env: Record<string, string>) => {
  const parsed = parseConfig(env, "/srv")
  return Result.isFailure(parsed) ? parsed.failure : []
}

describe("parseConfig, operations", () => {
  it("turns nothing on by default", () => {
    const parsed = parseConfig({}, "/srv")
    if (Result.isFailure(parsed)) return assert.fail(parsed.failure.join())
    const c = parsed.success
    assert.deepStrictEqual([c.metricsPort, c.tracing, c.backup, c.filesDir], [undefined, undefined, undefined, "/srv/.data/files"])
  })

  it("reads metrics, tracing and backups", () => {
    const parsed = parseConfig({
      INIT_CWD: "/repo", METRICS_PORT: "9464", OTEL_EXPORTER_OTLP_ENDPOINT: "https://otel.example.org:4318/",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json", OTEL_EXPORTER_OTLP_HEADERS: "x-api-key=s%3Dcret,team=forms",
      OTEL_SERVICE_NAME: "forms-prod", OTEL_RESOURCE_ATTRIBUTES: "deployment.environment=production",
      FILES_DIR: "uploads", BACKUP_DIR: "backups", BACKUP_INTERVAL_HOURS: "6", BACKUP_KEEP: "28"
    }, "/srv")
    if (Result.isFailure(parsed)) return assert.fail(parsed.failure.join())
    const c = parsed.success
    assert.strictEqual(c.metricsPort, 9464)
    assert.strictEqual(c.tracing?.endpoint, "https://otel.example.org:4318")
    assert.strictEqual(c.tracing?.protocol, "http/json")
    assert.deepStrictEqual(c.tracing === undefined ? {} : { ...Redacted.value(c.tracing.headers) }, { "x-api-key": "s=cret", team: "forms" })
    assert.strictEqual(c.tracing?.serviceName, "forms-prod")
    assert.deepStrictEqual(c.tracing?.resourceAttributes, { "deployment.environment": "production" })
    assert.strictEqual(c.filesDir, "/repo/uploads")
    assert.deepStrictEqual(c.backup, { dir: "/repo/backups", intervalHours: 6, keep: 28 })
  })

  it("names each bad value, and never echoes the headers", () => {
    const found = problems({
      PORT: "8080", METRICS_PORT: "8080", OTEL_EXPORTER_OTLP_ENDPOINT: "ftp://x", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc",
      OTEL_EXPORTER_OTLP_HEADERS: "secret-without-equals", BACKUP_INTERVAL_HOURS: "0", BACKUP_KEEP: "x"
    })
    assert.deepStrictEqual(found.map((p) => p.split(/[ :]/)[0]).sort(), [
      "BACKUP_INTERVAL_HOURS", "BACKUP_KEEP", "METRICS_PORT", "OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_HEADERS",
      "OTEL_EXPORTER_OTLP_PROTOCOL"
    ])
    assert.isFalse(found.join("\n").includes("secret-without-equals"))
  })

  it("refuses BACKUP_DIR with DATABASE_URL: PostgreSQL is backed up with pg_dump", () => {
    const found = problems({ DATABASE_URL: "postgres://db/forms", BACKUP_DIR: "/backups" })
    assert.strictEqual(found.length, 1)
    assert.include(found[0] ?? "", "pg_dump")
  })
})
