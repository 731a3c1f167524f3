/**
 * The embedded database's files are its owner's alone (CONTRACT §16: no other process reaches the
 * embedded database): the folder 0700, every folder in it 0700, every file 0600, on start and for what
 * PGlite writes later. PGlite's files hold every visitor's values and the webhook secrets in clear.
 */
import type { PGlite } from "@electric-sql/pglite"
import { chmodSync, lstatSync, mkdirSync, readdirSync } from "node:fs"
import { join } from "node:path"

const folderMode = 0o700
const fileMode = 0o600
const groupAndOther = 0o077

/** Creates `dir` (0700) when missing, and makes it and everything in it its owner's only. */
export const restrictDataDir = (dir: string): void => {
  mkdirSync(dir, { recursive: true, mode: folderMode })
  const visit = (path: string) => {
    const stat = lstatSync(path)
    if (stat.isSymbolicLink()) return // never followed: what it points to is not the database's
    if (stat.isDirectory()) {
      if ((stat.mode & 0o777) !== folderMode) chmodSync(path, folderMode)
      for (const name of readdirSync(path)) visit(join(path, name))
    } else if ((stat.mode & 0o777) !== fileMode) {
      chmodSync(path, fileMode)
    }
  }
  visit(dir)
}

/**
 * PGlite's file system (Emscripten's, over node's `fs`) creates a file 0777 and then sets the mode
 * PostgreSQL asked for with an explicit chmod, which no umask narrows (0644 for a file PostgreSQL
 * opens with `fopen`, such as `pg_internal.init`). Both steps of this instance drop group and other bits.
 */
export const keepOwnerOnly = (db: PGlite): void => {
  // Emscripten calls both with a path or a node: passed through as they come.
  const fs = db.Module.FS
  const mknod = fs.mknod.bind(fs)
  const chmod = fs.chmod.bind(fs)
  fs.mknod = (path: string, mode: number, dev: number) => mknod(path, mode & ~groupAndOther, dev)
  fs.chmod = (path: string, mode: number, dontFollow?: boolean) => chmod(path, mode & ~groupAndOther, dontFollow)
}
