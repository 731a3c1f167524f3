/**
 * One process at a time on an embedded database folder: PGlite has no lock of its own, and two processes
 * writing one folder corrupt it. A lock file names its holder and is taken over once the holder is gone.
 */
import { randomUUID } from "node:crypto"
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, readdirSync, readFileSync, statSync, unlinkSync, writeSync } from "node:fs"
import { join, resolve } from "node:path"

export const lockFileName = "forms.lock"

// Node has no flock, and a stale lock removed then made again lets one process remove another's fresh lock:
// a stale lock is superseded instead, by an atomic link to the next generation (`forms.lock.<n>`), re-checked.

interface Holder {
  readonly pid: number
  /** The holder's start time (Linux), so that a pid reused by another process does not look like the holder. */
  readonly started: string | null
}

/** Folders this process holds (a second open in the same process is refused too). */
const held = new Set<string>()

const generationPattern = /^forms\.lock(?:\.(\d{1,9}))?$/

const generationOf = (name: string): number | undefined => {
  const match = generationPattern.exec(name)
  return match === null ? undefined : Number(match[1] ?? 0)
}

const nameOf = (generation: number): string => generation === 0 ? lockFileName : `${lockFileName}.${generation}`

/** The lock files in `dir`, highest generation first. */
const generations = (dir: string): Array<number> =>
  readdirSync(dir).flatMap((name) => {
    const generation = generationOf(name)
    return generation === undefined ? [] : [generation]
  }).sort((a, b) => b - a)

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

/** Whether the lock file at `path` is held: by a live process that is still the one that wrote it. */
const isHeld = (dir: string, path: string, holder: Holder | undefined): boolean => {
  if (holder === undefined) {
    // Unreadable: a file this code links is whole, but an older version wrote its lock after creating it.
    try {
      return Date.now() - statSync(path).mtimeMs < 10_000
    } catch {
      return false
    }
  }
  if (holder.pid === process.pid) return held.has(dir)
  if (!isAlive(holder.pid)) return false
  const started = startOf(holder.pid)
  return holder.started === null || started === null || started === holder.started
}

const isCode = (error: unknown, code: string): boolean => error instanceof Error && "code" in error && error.code === code

const removeQuietly = (path: string) => {
  try {
    unlinkSync(path)
  } catch (error) {
    if (!isCode(error, "ENOENT")) throw error
  }
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

/** Takes the lock of `dataDir` (created 0700 if missing), or throws `DataDirInUse`. */
export const lockDataDir = (dataDir: string): DataDirLock => {
  const dir = resolve(dataDir)
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  if (held.has(dir)) throw new DataDirInUse(dir, process.pid)
  // The token makes this lock's content its own: release removes the file only while it is still this one.
  const mine = JSON.stringify({ pid: process.pid, started: startOf(process.pid), token: randomUUID() })
  const candidate = join(dir, `${lockFileName}.candidate.${process.pid}.${randomUUID()}`)
  const fd = openSync(candidate, "wx", 0o600)
  try {
    writeSync(fd, mine)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  try {
    for (let attempt = 0; attempt < 20; attempt++) {
      const present = generations(dir)
      for (const generation of present) {
        const path = join(dir, nameOf(generation))
        const holder = readHolder(path)
        if (isHeld(dir, path, holder)) throw new DataDirInUse(dir, holder?.pid)
      }
      const generation = (present[0] ?? -1) + 1
      const path = join(dir, nameOf(generation))
      try {
        linkSync(candidate, path)
      } catch (error) {
        if (isCode(error, "EEXIST")) continue // another contender took this generation: see who holds it
        throw error
      }
      // Whoever linked a higher generation meanwhile, or holds a lower one still, keeps it: give way.
      const contested = generations(dir).some((other) =>
        other > generation || (other < generation && isHeld(dir, join(dir, nameOf(other)), readHolder(join(dir, nameOf(other)))))
      )
      if (contested) {
        removeQuietly(path)
        continue
      }
      held.add(dir)
      for (const lower of generations(dir)) if (lower < generation) removeQuietly(join(dir, nameOf(lower)))
      return {
        release: () => {
          held.delete(dir)
          try {
            if (readFileSync(path, "utf8") === mine) unlinkSync(path)
          } catch {
            // Already gone.
          }
        }
      }
    }
    throw new DataDirInUse(dir, undefined)
  } finally {
    removeQuietly(candidate)
  }
}
