/**
 * Values never reach the logs, at debug level either: an unexpected database failure whose error text quotes
 * the values of the statement is logged by class and code only. The server runs as a process (as
 * `pnpm start` runs it) and its stdout and stderr are read whole.
 */
import { describe, expect, it } from "vitest"
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { EmbeddedPg, Migrations, PgLive } from "@forms/adapters-sql"
import { type Backend, fixturePath, testDatabaseUrl } from "./harness.js"
import { backends, reportSkippedPostgres } from "./backends.js"

const serverDir = fileURLToPath(new URL("..", import.meta.url))
const tsxBin = fileURLToPath(new URL("../node_modules/.bin/tsx", import.meta.url))

const marker = "refuse-me-5c1e8a2f"

// A trigger that refuses the marker with an error quoting the row's values (message, detail and hint), as a
// driver error does with the parameters of a failed statement.
const refusingTrigger = [
  `CREATE FUNCTION forms_test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF NEW.values::text LIKE '%refuse-me%' THEN
       RAISE EXCEPTION 'refused values %', NEW.values USING DETAIL = NEW.values::text, HINT = NEW.values::text;
     END IF;
     RETURN NEW;
   END $$`,
  `CREATE TRIGGER forms_test_refuse BEFORE UPDATE ON submissions FOR EACH ROW EXECUTE FUNCTION forms_test_refuse()`
]

const prepare = (database: Layer.Layer<SqlClient.SqlClient, unknown>) =>
  Effect.runPromise(Effect.gen(function*() {
    yield* Migrations.run
    const sql = yield* SqlClient.SqlClient
    for (const statement of refusingTrigger) yield* sql.unsafe(statement)
  }).pipe(Effect.provide(database)))

const adminQuery = (statement: string) =>
  Effect.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(statement)).pipe(
    Effect.provide(PgLive.layer({ url: testDatabaseUrl ?? "", maxConnections: 1 })),
    Effect.asVoid
  ))

/** The server's environment on a database holding the refusing trigger, and how to drop it afterwards. */
const database = async (backend: Backend) => {
  if (backend === "embedded") {
    const dataDir = mkdtempSync(join(tmpdir(), "forms-debuglogs-"))
    await prepare(EmbeddedPg.layer({ dataDir }))
    return { env: { DATA_DIR: dataDir }, drop: async () => rmSync(dataDir, { recursive: true, force: true }) }
  }
  const name = `forms_debuglogs_${Date.now()}_${Math.floor(Math.random() * 1e6)}`
  await adminQuery(`CREATE DATABASE ${name}`)
  const url = new URL(testDatabaseUrl ?? "")
  url.pathname = `/${name}`
  await prepare(PgLive.layer({ url: url.href, maxConnections: 1 }))
  return { env: { DATABASE_URL: url.href }, drop: () => adminQuery(`DROP DATABASE ${name} WITH (FORCE)`) }
}

describe("debug logs of an unexpected failure", () => {
  for (const backend of backends) {
    it(`name the error's class and SQLSTATE, never the values it quotes (${backend})`, async () => {
      const { env, drop } = await database(backend)
      try {
        const child = spawn(tsxBin, ["--conditions=@forms/source", "src/main.ts"], {
          cwd: serverDir,
          env: { ...process.env, INIT_CWD: serverDir, PORT: "0", FIXTURE_FILE: fixturePath, LOG_LEVEL: "debug", ...env },
          stdio: ["ignore", "pipe", "pipe"]
        })
        let output = ""
        child.stdout.on("data", (chunk) => (output += String(chunk)))
        child.stderr.on("data", (chunk) => (output += String(chunk)))
        const exited = new Promise<number | null>((resolve) => child.on("exit", resolve))
        const deadline = Date.now() + 90_000
        while (!output.includes(`"message":"listening"`) && Date.now() < deadline && child.exitCode === null) {
          await new Promise((r) => setTimeout(r, 100))
        }
        const line = output.split("\n").find((l) => l.includes(`"message":"listening"`))
        expect(line, output).toBeDefined()
        const address = (JSON.parse(line ?? "{}") as { annotations: { address: string } }).annotations.address
        const form = `${address}/public/forms/test-open-token-0001/submissions`
        const created = await fetch(form, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ idempotency_key: "debug-logs-0123456789abcdef" })
        })
        const { data } = (await created.json()) as { data: { id: string } }
        const saved = await fetch(`${form}/${data.id}`, {
          method: "PUT",
          headers: { "content-type": "application/json", "x-request-id": "debug-logs-1" },
          body: JSON.stringify({ values: { email: `${marker}@example.org` } })
        })
        expect(saved.status).toBe(500)
        expect(await saved.text()).not.toContain(marker)
        child.kill("SIGTERM")
        expect(await exited).toBe(0)

        expect(output.includes(marker), "the marker is in the logs").toBe(false)
        const lines = output.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as Record<string, unknown>)
        const failure = lines.filter((l) => String(l["message"]).startsWith("unexpected failure"))
        // Both lines are there (error and debug), naming the class, the reason and PL/pgSQL's SQLSTATE P0001.
        expect(failure.map((l) => l["level"])).toEqual(["ERROR", "DEBUG"])
        expect(failure[0]?.["annotations"]).toMatchObject({
          request_id: "debug-logs-1",
          defect: "SqlError",
          defect_reason: "UnknownError",
          defect_code: "P0001"
        })
        expect(JSON.stringify(failure[1])).toContain("SqlError UnknownError P0001")
      } finally {
        await drop()
      }
    }, 180_000)
  }
})

reportSkippedPostgres("debug logs of an unexpected failure")
