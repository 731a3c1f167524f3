/** A PostgreSQL cluster of our own in a temporary folder, which the fault tests may stop and start. */
import { execFile } from "node:child_process"
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs"
import { chown } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { freePort } from "./serverProcess.js"

const run = promisify(execFile)

export interface Cluster {
  readonly port: number
  /** The `postgres` database of the cluster (for admin statements). */
  readonly adminUrl: string
  readonly start: () => Promise<void>
  readonly stop: (mode: "fast" | "immediate") => Promise<void>
  readonly destroy: () => Promise<void>
}

const runuser = ["/usr/sbin/runuser", "/sbin/runuser", "/usr/bin/runuser"].find(existsSync)

const binDir = (): string | undefined => {
  const root = "/usr/lib/postgresql"
  if (!existsSync(root)) return undefined
  const versions = readdirSync(root).filter((v) => /^\d+$/.test(v) && Number(v) >= 15).sort((a, b) => Number(a) - Number(b))
  const found = versions.map((v) => join(root, v, "bin")).find((dir) => existsSync(join(dir, "initdb")))
  return found
}

/** Why our own cluster cannot run here, or undefined when it can. */
export const clusterUnavailable = (): string | undefined => {
  if (process.platform !== "linux") return "not Linux"
  if (process.getuid?.() !== 0) return "not root (runuser to the postgres user needs root)"
  if (runuser === undefined) return "no runuser"
  if (binDir() === undefined) return "no PostgreSQL ≥ 15 initdb under /usr/lib/postgresql"
  return undefined
}

const asPostgres = (bin: string, args: ReadonlyArray<string>, timeout = 90_000) => {
  if (runuser === undefined) throw new Error("no runuser")
  return run(runuser, ["-u", "postgres", "--", bin, ...args], { timeout })
}

const postgresIds = async (): Promise<{ uid: number; gid: number }> => {
  const uid = Number((await run("id", ["-u", "postgres"])).stdout.trim())
  const gid = Number((await run("id", ["-g", "postgres"])).stdout.trim())
  return { uid, gid }
}

/** initdb, then start on a free port on 127.0.0.1, trust authentication, socket in the temporary folder. */
export const createCluster = async (): Promise<Cluster> => {
  const bin = binDir()
  if (bin === undefined) throw new Error("no initdb")
  const dir = mkdtempSync(join(tmpdir(), "forms-e2e-pg-"))
  const { uid, gid } = await postgresIds()
  await chown(dir, uid, gid)
  const data = join(dir, "data")
  const port = await freePort()
  await asPostgres(join(bin, "initdb"), ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync"])
  const pgCtl = join(bin, "pg_ctl")
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=50`
  let running = false
  const start = async () => {
    await asPostgres(pgCtl, ["-D", data, "-l", join(dir, "log"), "-w", "-t", "60", "-o", options, "start"])
    running = true
  }
  const stop = async (mode: "fast" | "immediate") => {
    await asPostgres(pgCtl, ["-D", data, "-m", mode, "-w", "-t", "60", "stop"])
    running = false
  }
  const destroy = async () => {
    if (running) await stop("immediate").catch(() => undefined)
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    await start()
  } catch (error) {
    await destroy()
    throw error
  }
  return { port, adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`, start, stop, destroy }
}
