/**
 * The same-job reference: a plain `node:http` + `postgres` server kept outside this repository (its folder is
 * BENCH_REFERENCE_DIR, by default `bench-reference` in the `shared` folder beside the checkout). It is copied to a
 * folder of the run's own with its one dependency, so nothing is written beside the checkout. `SAME_JOB=1` makes it
 * do what the contract asks around the flow (limits, identity match and tag sync); without it, the lean floor.
 */
import { spawnSync } from "node:child_process"
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { adminUrl, createDatabase, databaseUrl } from "./database.js"

export const referenceDir = (repoRoot: string): string =>
  resolve(process.env["BENCH_REFERENCE_DIR"] ?? join(repoRoot, "..", "shared", "bench-reference"))

export type ReferenceKind = "reference" | "lean"
export const isReference = (kind: string): kind is ReferenceKind => kind === "reference" || kind === "lean"

const files = ["server.mjs", "closure.mjs", "setup.sql", "reset.sql", "package.json"] as const

/** The `postgres` driver the reference asks for: ours when it is the same version, else installed with npm. */
const installDriver = (copy: string) => {
  const wanted = JSON.parse(readFileSync(join(copy, "package.json"), "utf8")).dependencies?.postgres as string | undefined
  const ours = realpathSync(fileURLToPath(new URL("../node_modules/postgres", import.meta.url)))
  const oursVersion = JSON.parse(readFileSync(join(ours, "package.json"), "utf8")).version as string
  if (wanted === oursVersion) {
    mkdirSync(join(copy, "node_modules"), { recursive: true })
    symlinkSync(ours, join(copy, "node_modules", "postgres"), "dir")
    return
  }
  const installed = spawnSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: copy, stdio: "inherit" })
  if (installed.status !== 0) throw new Error(`npm install in the reference's copy (${copy}) failed`)
}

let prepared: string | undefined

/** The folder the reference runs from (prepared once per process); throws with the reason when it cannot. */
export const preparedReference = (repoRoot: string): string => {
  if (prepared !== undefined) return prepared
  const source = referenceDir(repoRoot)
  const missing = files.filter((f) => !existsSync(join(source, f)))
  if (missing.length > 0) {
    throw new Error(`the same-job reference is not at ${source} (missing ${missing.join(", ")}): set BENCH_REFERENCE_DIR, ` +
      "or measure ours alone with --servers=ours")
  }
  const copy = mkdtempSync(join(tmpdir(), "forms-bench-reference-"))
  for (const f of files) cpSync(join(source, f), join(copy, f))
  installDriver(copy)
  prepared = copy
  return copy
}

/** The reference's schema and the benchmark form (ours, so every server serves the same token) in a fresh database. */
const setUpReferenceDatabase = (repoRoot: string, url: string) => {
  const dir = preparedReference(repoRoot)
  const run = spawnSync("psql", [url, "-q", "-v", "ON_ERROR_STOP=1", "-v", `fixture=${join(repoRoot, "bench", "fixture.json")}`,
    "-f", join(dir, "setup.sql")], { encoding: "utf8" })
  if (run.status !== 0) throw new Error(`the reference's setup.sql failed: ${run.error?.message ?? run.stderr}`)
}

/** A fresh database for a server: empty for ours (it migrates and loads the fixture itself), set up for the reference. */
export const createDatabaseFor = async (repoRoot: string, kind: string, name: string): Promise<void> => {
  await createDatabase(name)
  if (isReference(kind)) setUpReferenceDatabase(repoRoot, databaseUrl(adminUrl(), name))
}

/** The reference's process: `node server.mjs` from its copy, with SAME_JOB=1 for the same-job reference. */
export const referenceCommand = (repoRoot: string, kind: ReferenceKind) => ({
  entry: join(preparedReference(repoRoot), "server.mjs"),
  env: kind === "reference" ? { SAME_JOB: "1" } : {}
})
