/**
 * Starts the reference server with the variables of CONTRACT §11 that it understands: DATABASE_URL,
 * PORT, HOST, FIXTURE_FILE, SUBMIT_RATE_LIMIT_PER_HOUR, FORM_TOKEN_GRACE_SECONDS, LOG_LEVEL, plus
 * DB_POOL_MAX (default 10, ours' pool size) and BENCH_REFERENCE_MIRROR=1 (ours' round trips, see server.ts).
 * Creates its tables, loads the fixture's forms, listens.
 */
import { readFile } from "node:fs/promises"
import postgres from "postgres"
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

const server = makeReferenceServer(makeQueries(sql), {
  submitLimitPerHour: Number(env("SUBMIT_RATE_LIMIT_PER_HOUR", "10")),
  tokenGraceSeconds: Number(env("FORM_TOKEN_GRACE_SECONDS", "86400")),
  logRequests: ["debug", "info"].includes(env("LOG_LEVEL", "info").toLowerCase()),
  mirrorOurs: env("BENCH_REFERENCE_MIRROR", "0") === "1"
})

const host = env("HOST", "127.0.0.1")
server.listen(Number(env("PORT", "3000")), host, () => {
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  process.stdout.write(`${JSON.stringify({ level: "INFO", message: "listening", address: `http://${host}:${port}` })}\n`)
})

const stop = () => {
  server.close(() => void sql.end({ timeout: 5 }).then(() => process.exit(0)))
  server.closeIdleConnections()
  setTimeout(() => process.exit(1), 10_000).unref()
}
process.once("SIGTERM", stop)
process.once("SIGINT", stop)
