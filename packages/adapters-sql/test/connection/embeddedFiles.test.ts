/**
 * No other process reaches the embedded database's files (CONTRACT §16): the folder is 0700, every file
 * 0600 and every folder 0700, on start and for what PGlite writes later; and, as root, a process of
 * user `nobody` can neither read the WAL and `global/pg_control` (where a visitor's value and a webhook
 * secret are) nor write `pg_control`.
 */
import { describe, expect, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { EmbeddedPg } from "../../src/connection/EmbeddedPg.js"
import { loadFixture } from "../../src/fixture/loadFixture.js"
import { Migrations } from "../../src/migrations/Migrations.js"
import { ids, validFixture } from "../fixtures.js"

const value = "visitor-value-7f3a9c"
const secret = "whsec_c2VjcmV0LW9mLXRoZS10ZXN0LTg4"

/** Every entry under `dir` (itself included) whose mode is not 0700 (folders) or 0600 (files). */
const wideModes = (dir: string): Array<string> => {
  const found: Array<string> = []
  const visit = (path: string) => {
    const stat = lstatSync(path)
    const mode = stat.mode & 0o777
    if (stat.isDirectory()) {
      if (mode !== 0o700) found.push(`${path} ${mode.toString(8)}`)
      for (const name of readdirSync(path)) visit(join(path, name))
    } else if (mode !== 0o600) found.push(`${path} ${mode.toString(8)}`)
  }
  visit(dir)
  return found
}

const wal = (dataDir: string) => readdirSync(join(dataDir, "pg_wal")).filter((name) => /^[0-9A-F]{24}$/.test(name))

/** Writes a value and a webhook secret, and checks the files while PGlite is open. */
const writeAndCheck = (dataDir: string) =>
  Effect.gen(function*() {
    yield* Migrations.run
    yield* loadFixture(validFixture())
    const sql = yield* SqlClient.SqlClient
    yield* sql`INSERT INTO submissions (schema_id, idempotency_key, values, created_at, updated_at)
      VALUES (${ids.volunteer}, 'files-test', ${JSON.stringify({ name: value })}::jsonb, now(), now())`
    yield* sql`INSERT INTO webhook_endpoints (organisation_id, url, event_types, secret, created_at)
      VALUES (${ids.organisation}, 'https://example.org/hook', ARRAY['submission.submitted'], ${secret}, now())`
    yield* sql`CHECKPOINT`
    // A file PostgreSQL creates while it runs with a mode of its own choosing (COPY TO asks 0644).
    const [where] = yield* sql<{ readonly data_directory: string }>`SHOW data_directory`
    yield* sql.unsafe(`COPY (SELECT 'x') TO '${where?.data_directory ?? ""}/copied.txt'`)
    return wideModes(dataDir)
  }).pipe(Effect.provide(EmbeddedPg.layer({ dataDir })))

// A process of user `nobody` trying to read and write the database's files; prints what each attempt got.
const probe = `
const fs = require("node:fs")
const attempt = (f) => { try { f(); return "ok" } catch (e) { return e.code } }
const [walFile, control] = process.argv.slice(1)
console.log(JSON.stringify({
  readWal: attempt(() => fs.readFileSync(walFile)),
  readControl: attempt(() => fs.readFileSync(control)),
  writeControl: attempt(() => fs.closeSync(fs.openSync(control, "r+")))
}))`

const isRoot = process.getuid?.() === 0

describe("the embedded database's files", () => {
  it.live("are 0600 in folders of 0700, while PGlite runs and after it closed", () =>
    Effect.gen(function*() {
      const parent = mkdtempSync(join(tmpdir(), "forms-files-"))
      try {
        // The parent is open to all, so only the data folder's own modes protect it.
        chmodSync(parent, 0o755)
        const dataDir = join(parent, "data")
        expect(yield* writeAndCheck(dataDir)).toEqual([])
        expect(wideModes(dataDir)).toEqual([])
        // The value and the secret are on disk in clear: what the modes protect.
        const onDisk = wal(dataDir).map((name) => readFileSync(join(dataDir, "pg_wal", name)).toString("latin1")).join("")
        expect(onDisk).toContain(value)
        expect(onDisk).toContain(secret)
      } finally {
        rmSync(parent, { recursive: true, force: true })
      }
    }), 120_000)

  it.live("a folder made wider by hand is made 0700 again, with its files 0600, on the next start", () =>
    Effect.gen(function*() {
      const parent = mkdtempSync(join(tmpdir(), "forms-files-"))
      try {
        const dataDir = join(parent, "data")
        mkdirSync(dataDir, { mode: 0o777 })
        chmodSync(dataDir, 0o777)
        expect(yield* writeAndCheck(dataDir)).toEqual([])
        chmodSync(dataDir, 0o755)
        chmodSync(join(dataDir, "global", "pg_control"), 0o666)
        yield* Effect.provide(Effect.void, EmbeddedPg.layer({ dataDir }))
        expect(wideModes(dataDir)).toEqual([])
      } finally {
        rmSync(parent, { recursive: true, force: true })
      }
    }), 120_000)

  if (!isRoot) {
    it.skip("as user nobody: skipped, the test runs as root only (it starts a process as another user)", () => {})
  } else {
    it.live("as user nobody: the WAL and pg_control cannot be read, pg_control cannot be written", () =>
      Effect.gen(function*() {
        const parent = mkdtempSync(join(tmpdir(), "forms-files-"))
        try {
          chmodSync(parent, 0o755)
          const dataDir = join(parent, "data")
          yield* writeAndCheck(dataDir)
          const idOf = (flag: string) => Number(spawnSync("id", [flag, "nobody"], { encoding: "utf8" }).stdout.trim())
          const walFile = join(dataDir, "pg_wal", wal(dataDir)[0] ?? "missing")
          const child = spawnSync(process.execPath, ["-e", probe, walFile, join(dataDir, "global", "pg_control")], {
            uid: idOf("-u"),
            gid: idOf("-g"),
            encoding: "utf8",
            cwd: "/"
          })
          expect(child.stderr).toBe("")
          expect(JSON.parse(child.stdout)).toEqual({ readWal: "EACCES", readControl: "EACCES", writeControl: "EACCES" })
        } finally {
          rmSync(parent, { recursive: true, force: true })
        }
      }), 120_000)
  }
})
