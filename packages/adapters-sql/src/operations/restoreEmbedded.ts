/**
 * Restores a copy of an embedded database (`EmbeddedDump`'s tarball) into an empty folder, through PGlite's own
 * `loadDataDir`: the folder is locked as a running server locks it, so no server can open it meanwhile.
 */
import { Effect } from "effect"
import { existsSync, readdirSync, readFileSync, unlinkSync } from "node:fs"
import { join, resolve } from "node:path"
import { DataDirInUse, lockDataDir, lockFileName } from "../connection/DataDirLock.js"
import { EmbeddedPgError } from "../connection/EmbeddedPg.js"
import { embeddedSettings, keepWasmCompact } from "../connection/embeddedMemory.js"

const describe = (cause: unknown): string => cause instanceof Error ? cause.message : String(cause)

/** The folder is missing or holds nothing. */
export const isEmptyFolder = (dir: string): boolean => !existsSync(dir) || readdirSync(dir).length === 0

/** Fails when `dataDir` holds anything; else loads `tarball` (gzipped or not) into it. */
export const restoreEmbedded = (options: { readonly dataDir: string; readonly tarball: Uint8Array }) =>
  Effect.tryPromise({
    try: async () => {
      const dataDir = resolve(options.dataDir)
      if (!isEmptyFolder(dataDir)) {
        throw new EmbeddedPgError({
          message: `${dataDir} is not empty: a backup is restored into an empty folder only (move the folder away first).`
        })
      }
      const lock = lockDataDir(dataDir)
      const lockPath = join(dataDir, lockFileName)
      const mine = readFileSync(lockPath, "utf8")
      try {
        keepWasmCompact()
        const { PGlite } = await import("@electric-sql/pglite")
        const db = await PGlite.create({
          dataDir,
          loadDataDir: new Blob([options.tarball.slice()]),
          startParams: [...PGlite.defaultStartParams, ...embeddedSettings]
        })
        // The copy opened (PostgreSQL's recovery ran): the tables are there.
        await db.query("SELECT 1 FROM forms_migrations LIMIT 1")
        await db.close()
      } finally {
        // The copy brings the lock file of the server it was taken from: that process is not this folder's holder.
        try {
          if (readFileSync(lockPath, "utf8") !== mine) unlinkSync(lockPath)
        } catch {
          // No lock file in the copy.
        }
        lock.release()
      }
    },
    catch: (cause) =>
      cause instanceof EmbeddedPgError
        ? cause
        : new EmbeddedPgError({
          message: cause instanceof DataDirInUse ? cause.message : `The backup could not be restored: ${describe(cause)}`
        })
  })
