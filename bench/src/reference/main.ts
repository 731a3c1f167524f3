/**
 * Starts the reference server with the variables of CONTRACT §11 that it understands: DATABASE_URL,
 * PORT, HOST, FIXTURE_FILE, SUBMIT_RATE_LIMIT_PER_HOUR, WRITE_RATE_LIMIT_PER_HOUR, TRUST_PROXY_HOPS,
 * RATE_LIMIT_EXEMPT_NETWORKS, FORM_TOKEN_GRACE_SECONDS, LOG_LEVEL, plus DB_POOL_MAX (default 10, ours'
 * pool size), REFERENCE_VARIANT and BENCH_REFERENCE_MIRROR=1 (ours' first round trips, see server.ts).
 * REFERENCE_VARIANT: `same-job` (default: the client limits, and the outbox consumed by tag sync and
 * identity match, outbox.ts) or `lean` (the floor: no limit, nobody consumes the outbox rows).
 * Creates its tables, loads the fixture's forms, listens.
 */
import { readFile } from "node:fs/promises"
import postgres from "postgres"
import { parseExemptNetworks } from "./client.js"
import { makeLimiter } from "./limiter.js"
import { startOutboxConsumer } from "./outbox.js"
import { makeQueries } from "./queries.js"
import { type BenchFixture, createReferenceSchema, loadReferenceFixture } from "./schema.js"
import { makeReferenceServer } from "./server.js"

const env = (name: string, fallback: string): string => {
  const value = process.env[name]
  return value === undefined || value.trim() === "" ? fallback : value.trim()
}

const databaseUrl = env("DATABASE_URL", "")
if (databaseUrl === "") {
  process.stderr.write("DATABASE_URL is required by the reference server.\n")
  process.exit(1)
}

const sql = postgres(databaseUrl, {
  max: Number(env("DB_POOL_MAX", "10")),
  onnotice: () => {},
  connection: { application_name: "forms-bench-reference", statement_timeout: 10_000, lock_timeout: 10_000 }
})

await createReferenceSchema(sql)
const fixtureFile = env("FIXTURE_FILE", "")
if (fixtureFile !== "") {
  await loadReferenceFixture(sql, JSON.parse(await readFile(fixtureFile, "utf8")) as BenchFixture)
}

const variant = env("REFERENCE_VARIANT", "same-job")
if (variant !== "same-job" && variant !== "lean") {
  process.stderr.write(`REFERENCE_VARIANT must be same-job or lean (got ${JSON.stringify(variant)}).\n`)
  process.exit(1)
}
const consumer = variant === "same-job"
  ? startOutboxConsumer(sql, (error) =>
    process.stderr.write(`${JSON.stringify({ level: "WARN", message: "event delivery failed", error: error instanceof Error ? error.message : String(error) })}\n`))
  : undefined

const server = makeReferenceServer(makeQueries(sql), makeLimiter(sql), {
  submitLimitPerHour: Number(env("SUBMIT_RATE_LIMIT_PER_HOUR", "10")),
  writeLimitPerHour: Number(env("WRITE_RATE_LIMIT_PER_HOUR", "600")),
  tokenGraceSeconds: Number(env("FORM_TOKEN_GRACE_SECONDS", "86400")),
  trustProxyHops: Number(env("TRUST_PROXY_HOPS", "0")),
  exempt: parseExemptNetworks(env("RATE_LIMIT_EXEMPT_NETWORKS", "")),
  limits: variant === "same-job",
  ...(consumer === undefined ? {} : { onSubmitted: consumer.wake }),
  logRequests: ["debug", "info"].includes(env("LOG_LEVEL", "info").toLowerCase()),
  mirrorOurs: env("BENCH_REFERENCE_MIRROR", "0") === "1"
})

const host = env("HOST", "127.0.0.1")
server.listen(Number(env("PORT", "3000")), host, () => {
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  process.stdout.write(`${JSON.stringify({ level: "INFO", message: "listening", variant, address: `http://${host}:${port}` })}\n`)
})

const stop = () => {
  server.close(() => void (consumer?.stop() ?? Promise.resolve()).then(() => sql.end({ timeout: 5 })).then(() => process.exit(0)))
  server.closeIdleConnections()
  setTimeout(() => process.exit(1), 10_000).unref()
}
process.once("SIGTERM", stop)
process.once("SIGINT", stop)
