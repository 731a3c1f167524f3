/**
 * `pnpm bench:export`: exports 100,000 submissions of the bench's 30-field form from our server on PostgreSQL,
 * as CSV and as NDJSON, and prints rows/s, time to first byte and the server's peak RSS growth during each
 * export (VmRSS sampled every 20 ms, minus VmRSS just before the request; CONTRACT §12 wants it flat: under
 * 50 MB). The rows are stored with one SQL statement beforehand (the export is measured, not the submits).
 * Options: --rows=100000 --build. TEST_DATABASE_URL replaces the admin connection. The last line is JSON.
 */
import { spawnSync } from "node:child_process"
import { createHash, randomBytes } from "node:crypto"
import { existsSync } from "node:fs"
import { mkdtemp } from "node:fs/promises"
import { availableParallelism, tmpdir, totalmem } from "node:os"
import { join } from "node:path"
import postgres from "postgres"
import { adminUrl, createDatabase, databaseUrl, dropDatabase } from "./database.js"
import { oursEntry, readRss, repoRoot, startServer } from "./servers.js"

const arg = (name: string): string | undefined => {
  const hit = process.argv.find((a) => a === `--${name}` || a.startsWith(`--${name}=`))
  return hit === undefined ? undefined : (hit.split("=")[1] ?? "true")
}
const rows = Number(arg("rows") ?? 100_000)
const say = (line: string) => process.stdout.write(`${line}\n`)
const database = `forms_bench_export_${process.pid}`
const formId = "bench-volunteers"

const ensureBuilt = () => {
  if (existsSync(oursEntry) && arg("build") === undefined) return
  say("running pnpm build (apps/server/dist/main.js is missing or --build)")
  const built = spawnSync("pnpm", ["build"], { cwd: repoRoot, stdio: ["ignore", "inherit", "inherit"] })
  if (built.status !== 0 || !existsSync(oursEntry)) throw new Error("pnpm build failed")
}

/** 100,000 submitted submissions with a value for each of the form's 30 fields, and an API key; the key. */
const seed = async (url: string): Promise<string> => {
  const sql = postgres(url, { max: 1, onnotice: () => {} })
  try {
    const fields = await sql<Array<{ slug: string; type: string }>>`SELECT slug, type FROM form_fields WHERE schema_id = ${formId} ORDER BY position`
    if (fields.length !== 30) throw new Error(`the bench form has ${fields.length} fields, not 30`)
    // One jsonb object per row built in SQL: text of ~20 characters per field (a comma and a quote in some).
    const members = fields.map((f, i) =>
      i % 7 === 0 ? `'${f.slug}', 'Name, "quoted" ' || n` : `'${f.slug}', 'value ${i} of row ' || n`).join(", ")
    const started = Date.now()
    await sql.unsafe(`INSERT INTO submissions (schema_id, idempotency_key, status, values, created_at, updated_at, submitted_at)
      SELECT '${formId}', 'export-' || n, 'submitted', jsonb_build_object(${members}),
        timestamptz '2027-01-01' + n * interval '1 millisecond', timestamptz '2027-01-01' + n * interval '1 millisecond',
        timestamptz '2027-01-01' + n * interval '1 millisecond'
      FROM generate_series(1, ${rows}) AS n`)
    await sql.unsafe("VACUUM ANALYZE submissions")
    say(`stored ${rows} submissions in ${((Date.now() - started) / 1000).toFixed(1)} s`)
    const key = `fok_${randomBytes(32).toString("base64url")}`
    const hash = createHash("sha256").update(key, "utf8").digest("hex")
    const [org] = await sql<Array<{ organisation_id: string }>>`SELECT organisation_id FROM form_schemas WHERE id = ${formId}`
    await sql`INSERT INTO api_keys (organisation_id, name, key_hash, prefix) VALUES (${org!.organisation_id}, 'bench', ${hash}, ${key.slice(0, 8)})`
    return key
  } finally {
    await sql.end({ timeout: 5 })
  }
}

interface ExportRun {
  readonly format: string
  readonly rows: number
  readonly bytes: number
  readonly seconds: number
  readonly rows_per_second: number
  readonly first_byte_ms: number
  readonly rss_before_mb: number
  readonly rss_peak_mb: number
  readonly rss_growth_mb: number
}

const measure = async (baseUrl: string, pid: number, key: string, format: "csv" | "ndjson"): Promise<ExportRun> => {
  const before = readRss(pid)?.rssKb ?? 0
  let peak = before
  const sampler = setInterval(() => {
    const rss = readRss(pid)?.rssKb
    if (rss !== undefined && rss > peak) peak = rss
  }, 20)
  const started = performance.now()
  const response = await fetch(`${baseUrl}/admin/forms/${formId}/export?format=${format}`, { headers: { authorization: `Bearer ${key}` } })
  if (response.status !== 200 || response.body === null) throw new Error(`export answered ${response.status}: ${await response.text()}`)
  let firstByte = -1
  let bytes = 0
  let lines = 0
  for await (const chunk of response.body) {
    if (firstByte < 0) firstByte = performance.now() - started
    bytes += chunk.byteLength
    for (let i = 0; i < chunk.byteLength; i++) if (chunk[i] === 10) lines++
  }
  const seconds = (performance.now() - started) / 1000
  clearInterval(sampler)
  const counted = format === "csv" ? lines - 1 : lines
  if (counted !== rows) throw new Error(`${format}: ${counted} rows exported, ${rows} expected`)
  return {
    format,
    rows: counted,
    bytes,
    seconds: Number(seconds.toFixed(2)),
    rows_per_second: Math.round(counted / seconds),
    first_byte_ms: Math.round(firstByte),
    rss_before_mb: Number((before / 1024).toFixed(1)),
    rss_peak_mb: Number((peak / 1024).toFixed(1)),
    rss_growth_mb: Number(((peak - before) / 1024).toFixed(1))
  }
}

const main = async () => {
  ensureBuilt()
  const url = databaseUrl(adminUrl(), database)
  await createDatabase(database)
  const logDir = await mkdtemp(join(tmpdir(), "forms-bench-export-"))
  const server = await startServer({ kind: "ours", databaseUrl: url, logLevel: "warn", traffic: "visitors", logFile: join(logDir, "ours.log") })
  try {
    const key = await seed(url)
    const results: Array<ExportRun> = []
    // A warm-up export of the first page's worth is not taken: the first export is measured as a user sees it.
    for (const format of ["csv", "ndjson", "csv"] as const) {
      const run = await measure(server.baseUrl, server.pid, key, format)
      results.push(run)
      say(`${format}: ${run.rows} rows, ${(run.bytes / 1e6).toFixed(1)} MB in ${run.seconds} s = ${run.rows_per_second} rows/s; ` +
        `first byte ${run.first_byte_ms} ms; server RSS ${run.rss_before_mb} → peak ${run.rss_peak_mb} MB (growth ${run.rss_growth_mb} MB)`)
    }
    const worst = Math.max(...results.map((r) => r.rss_growth_mb))
    say(worst < 50 ? `peak RSS growth ${worst} MB: under 50 MB` : `peak RSS growth ${worst} MB: OVER 50 MB`)
    say(JSON.stringify({ rows, machine: { cpus: availableParallelism(), memory_gb: Math.round(totalmem() / 2 ** 30) }, results }))
    if (worst >= 50) process.exitCode = 1
  } finally {
    await server.stop()
    await dropDatabase(database)
  }
}

main().catch((error: unknown) => {
  say(`export benchmark failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`)
  void dropDatabase(database).finally(() => process.exit(1))
})
