/**
 * Backups and restores, as an operator runs them. The embedded database: `pnpm cli backup` (refused while a
 * server holds the folder), the BACKUP_DIR schedule (keeping BACKUP_KEEP), `pnpm cli restore` into an empty
 * DATA_DIR only. PostgreSQL: `pg_dump -Fc` and `pg_restore` into a fresh database. Each copy has every table's
 * rows and every file equal, and a server started on it answers the same submissions and the same CSV export.
 */
import { afterAll, describe, expect, it } from "vitest"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { EmbeddedPg, PgLive } from "@forms/adapters-sql"
import { reportSkippedPostgres } from "./backends.js"
import { testDatabaseUrl } from "./harness.js"
import { admin, contactForm, fixtureWithKey, killAll, runCli, startServer, submitForm, tempDir } from "./operationsSupport.js"

afterAll(killAll)

const jsonOf = (value: unknown) => JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v))

/** Every table of the current schema with its rows, each row as JSON, sorted: a dump to compare. */
const dumpTables = (database: Layer.Layer<SqlClient.SqlClient, unknown>) =>
  Effect.runPromise(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const tables = yield* sql<{ table_name: string }>`
      SELECT table_name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`
    const dump: Record<string, ReadonlyArray<string>> = {}
    for (const { table_name } of tables) {
      const rows = yield* sql.unsafe(`SELECT * FROM "${table_name}"`)
      dump[table_name] = rows.map(jsonOf).sort()
    }
    return dump
  }).pipe(Effect.provide(database), Effect.scoped))

/** What a server answers about the submissions: each one, and the form's CSV export. */
const answers = async (env: Record<string, string>, ids: ReadonlyArray<string>) => {
  const server = startServer(env)
  try {
    const base = (await server.waitFor("listening"))["address"] ?? ""
    const submissions = await Promise.all(ids.map(async (id) => {
      const res = await admin(base, "GET", `/admin/submissions/${id}`)
      expect(res.status).toBe(200)
      return res.text()
    }))
    const csv = await admin(base, "GET", "/admin/forms/fs-contact/export?format=csv")
    expect(csv.status).toBe(200)
    return { submissions, csv: await csv.text() }
  } finally {
    expect(await server.stop()).toBe(0)
  }
}

/** Waits until the outbox has linked each submission to its contact, so what is stored no longer changes. */
const contactsLinked = async (base: string, ids: ReadonlyArray<string>) => {
  const deadline = Date.now() + 60_000
  for (const id of ids) {
    for (;;) {
      const res = await admin(base, "GET", `/admin/submissions/${id}`)
      const body = (await res.json()) as { readonly data?: { readonly contact_id?: string | null } }
      if (typeof body.data?.contact_id === "string") break
      if (Date.now() > deadline) throw new Error(`submission ${id} was not linked to a contact within 60 s`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
}

/** A server on `env` takes `n` submissions of the contact form, settled (contacts linked); their ids. */
const fill = async (env: Record<string, string>, n: number, tag: string) => {
  const server = startServer(env)
  try {
    const base = (await server.waitFor("listening"))["address"] ?? ""
    const ids: Array<string> = []
    for (let i = 0; i < n; i++) {
      const { status, id } = await submitForm(base, contactForm, `${tag}-${i}-0123456789abcdef`, {
        email: `${tag}.${i}@example.org`,
        interest: null
      })
      expect(status).toBe(200)
      ids.push(id)
    }
    await contactsLinked(base, ids)
    return ids
  } finally {
    expect(await server.stop()).toBe(0)
  }
}

const folderContents = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => [join(entry.parentPath, entry.name).slice(dir.length), readFileSync(join(entry.parentPath, entry.name), "utf8")])
    .sort()

describe("backups of the embedded database", () => {
  it("backs up by the CLI and by the schedule, restores into an empty DATA_DIR only, with every row and file", async () => {
    const root = tempDir("forms-backup-")
    const dataDir = join(root, "data")
    const filesDir = join(root, "files")
    mkdirSync(join(filesDir, "org-t"), { recursive: true })
    writeFileSync(join(filesDir, "org-t", "poster.txt"), "a file the organiser uploaded\n")
    const env = { DATA_DIR: dataDir, FILES_DIR: filesDir, FIXTURE_FILE: fixtureWithKey(), RATE_LIMIT_EXEMPT_NETWORKS: "127.0.0.1/32" }
    const ids = await fill(env, 3, "embedded")
    const before = await answers(env, ids)

    // The CLI refuses while a server holds the folder.
    const running = startServer(env)
    await running.waitFor("listening")
    const refused = await runCli(["backup", join(root, "while-running.tar")], env)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain("is in use by process")
    expect(existsSync(join(root, "while-running.tar"))).toBe(false)
    expect(await running.stop()).toBe(0)

    const file = join(root, "manual.tar")
    const backedUp = await runCli(["backup", file], env)
    expect(backedUp.stderr.split("\n").filter((l) => l.includes("\"ERROR\""))).toEqual([])
    expect(backedUp.code).toBe(0)

    // The schedule: due at start when the newest backup is older than the interval; keeps BACKUP_KEEP files.
    const backupDir = join(root, "backups")
    mkdirSync(backupDir)
    const old = ["forms-backup-20200101T000000000Z.tar", "forms-backup-20200102T000000000Z.tar"]
    for (const name of old) {
      writeFileSync(join(backupDir, name), "an old backup")
      utimesSync(join(backupDir, name), new Date("2020-01-02T00:00:00Z"), new Date("2020-01-02T00:00:00Z"))
    }
    const scheduled = startServer({ ...env, BACKUP_DIR: backupDir, BACKUP_KEEP: "2", BACKUP_INTERVAL_HOURS: "24" })
    const written = await scheduled.waitFor("backup written")
    expect(await scheduled.stop()).toBe(0)
    expect(readdirSync(backupDir).sort()).toEqual([old[1], written["file"]].sort())

    const expectedRows = await dumpTables(EmbeddedPg.layer({ dataDir }))
    expect(expectedRows["submissions"]?.length).toBeGreaterThanOrEqual(3)
    for (const [name, backup] of [["manual", file], ["scheduled", join(backupDir, written["file"] ?? "")]] as const) {
      const target = join(root, `restored-${name}`)
      const targetEnv = { ...env, DATA_DIR: join(target, "data"), FILES_DIR: join(target, "files") }
      const restored = await runCli(["restore", backup], targetEnv)
      expect(restored.stderr.split("\n").filter((l) => l.includes("\"ERROR\""))).toEqual([])
      expect(restored.code).toBe(0)
      expect(await dumpTables(EmbeddedPg.layer({ dataDir: join(target, "data") }))).toEqual(expectedRows)
      expect(folderContents(join(target, "files"))).toEqual(folderContents(filesDir))
      expect(await answers(targetEnv, ids)).toEqual(before)
      // Never over a folder that holds something.
      const again = await runCli(["restore", backup], targetEnv)
      expect(again.code).toBe(1)
      expect(again.stderr).toContain("is not empty")
    }
  }, 600_000)
})

const pgUrl = (database: string) => {
  const url = new URL(testDatabaseUrl ?? "")
  url.pathname = `/${database}`
  return url.toString()
}

describe.skipIf(testDatabaseUrl === undefined)("backups of PostgreSQL", () => {
  it("pg_dump -Fc and pg_restore into a fresh database: every row equal, the same answers", async () => {
    const suffix = `${Date.now()}_${Math.floor(Math.random() * 1e6)}`
    const source = `ops_backup_src_${suffix}`
    const target = `ops_backup_dst_${suffix}`
    const psql = (command: string) => execFileSync("psql", [testDatabaseUrl ?? "", "-v", "ON_ERROR_STOP=1", "-qc", command])
    psql(`CREATE DATABASE ${source}`)
    psql(`CREATE DATABASE ${target}`)
    try {
      const env = { DATABASE_URL: pgUrl(source), FIXTURE_FILE: fixtureWithKey(), RATE_LIMIT_EXEMPT_NETWORKS: "127.0.0.1/32" }
      const ids = await fill(env, 3, "postgres")
      const before = await answers(env, ids)
      const dump = join(tempDir("forms-pgdump-"), "forms.dump")
      // As docs/operations.md shows it.
      execFileSync("pg_dump", ["-Fc", "-f", dump, pgUrl(source)])
      execFileSync("pg_restore", ["--no-owner", "-d", pgUrl(target), dump])
      expect(await dumpTables(PgLive.layer({ url: pgUrl(target) }))).toEqual(await dumpTables(PgLive.layer({ url: pgUrl(source) })))
      expect(await answers({ ...env, DATABASE_URL: pgUrl(target) }, ids)).toEqual(before)
    } finally {
      psql(`DROP DATABASE IF EXISTS ${source} WITH (FORCE)`)
      psql(`DROP DATABASE IF EXISTS ${target} WITH (FORCE)`)
    }
  }, 600_000)
})

reportSkippedPostgres("backups")
