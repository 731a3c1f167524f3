/**
 * One process at a time on an embedded database folder: PGlite has no lock of its own, and two processes
 * writing one folder corrupt it. A lock file names its holder and is taken over once the holder is gone.
 */
import { closeSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from "node:fs"
import { join, resolve } from "node:path"

export const lockFileName = "forms.lock"

interface Holder {
  readonly pid: number
  /** The holder's start time (Linux), so that a pid reused by another process does not look like the holder. */
  readonly started: string | null
}

/** Lock files this process holds (a second open in the same process is refused too). */
const held = new Set<string>()

const startOf = (pid: number): string | null => {
  try {
    // Field 22 of /proc/<pid>/stat, counted from the state (field 3) after the command's closing parenthesis.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null
  } catch {
    return null
  }
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return error instanceof Error && "code" in error && error.code === "EPERM"
  }
}

const readHolder = (path: string): Holder | undefined => {
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, "utf8"))
    if (typeof parsed !== "object" || parsed === null || !("pid" in parsed) || !Number.isInteger(parsed.pid)) return undefined
    const started = "started" in parsed && typeof parsed.started === "string" ? parsed.started : null
    return { pid: Number(parsed.pid), started }
  } catch {
    return undefined
  }
}

/** Whether the lock at `path` is held: by a live process that is still the one that wrote it. */
const isHeld = (path: string, holder: Holder | undefined): boolean => {
  if (holder === undefined) {
    // Unreadable: being written by a process that has just created it, or left half-written by a crash.
    try {
      return Date.now() - statSync(path).mtimeMs < 10_000
    } catch {
      return false
    }
  }
  if (holder.pid === process.pid) return held.has(path)
  if (!isAlive(holder.pid)) return false
  const started = startOf(holder.pid)
  return holder.started === null || started === null || started === holder.started
}

export class DataDirInUse extends Error {
  constructor(readonly dataDir: string, readonly pid: number | undefined) {
    super(
      `The embedded database in ${dataDir} is in use by ${pid === undefined ? "another process" : `process ${pid}`} ` +
        "(a running server or CLI command); it can be open in one process at a time. The CLI uses the embedded " +
        "database only while the server is not running: stop the server first, or use DATABASE_URL."
    )
    this.name = "DataDirInUse"
  }
}

export interface DataDirLock {
  readonly release: () => void
}

/** Takes the lock of `dataDir` (created if missing), or throws `DataDirInUse`. */
export const lockDataDir = (dataDir: string): DataDirLock => {
  const dir = resolve(dataDir)
  mkdirSync(dir, { recursive: true })
  const path = join(dir, lockFileName)
  const mine = JSON.stringify({ pid: process.pid, started: startOf(process.pid) })
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, "wx", 0o600)
      try {
        writeSync(fd, mine)
      } finally {
        closeSync(fd)
      }
      held.add(path)
      return {
        release: () => {
          held.delete(path)
          try {
            if (readFileSync(path, "utf8") === mine) unlinkSync(path)
          } catch {
            // Already gone.
          }
        }
      }
    } catch (error) {
      if (!(error instanceof Error && "code" in error && error.code === "EEXIST")) throw error
    }
    const holder = readHolder(path)
    if (isHeld(path, holder)) throw new DataDirInUse(dir, holder?.pid)
    // The holder is gone (killed, or its machine restarted): its lock is stale.
    try {
      unlinkSync(path)
    } catch {
      // Removed by another process taking it over at the same time; the next attempt decides.
    }
  }
  throw new DataDirInUse(dir, undefined)
}
