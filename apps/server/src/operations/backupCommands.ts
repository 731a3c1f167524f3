/**
 * `pnpm cli backup <file>` and `pnpm cli restore <file>` on the embedded database. Backup opens the data folder
 * as the server does, so its lock refuses it while a server runs; restore writes into an empty DATA_DIR only (and
 * an empty files folder), through PGlite's own loader, and never opens a database of its own first.
 */
import { Console, Effect, Option } from "effect"
import { existsSync } from "node:fs"
import { cp, mkdir } from "node:fs/promises"
import { EmbeddedDump, isEmptyFolder, restoreEmbedded } from "@forms/adapters-sql"
import type { DatabaseCommand, PlainCommand } from "../command.js"
import { resolvePath } from "../config.js"
import { StartupError } from "../startup.js"
import { BackupError, readBackup, separateFilesDir, writeBackup } from "./backupFile.js"

const onPostgres = new StartupError({
  message: "DATABASE_URL is set: back up PostgreSQL with pg_dump -Fc and restore with pg_restore (docs/operations.md)."
})

export const backupCommand: DatabaseCommand = {
  usage: "backup <file>",
  summary: "write a backup of the embedded database and the files folder (while no server runs)",
  run: (args, config) =>
    Effect.gen(function*() {
      const [file] = args
      if (file === undefined || args.length !== 1) return yield* new StartupError({ message: "Usage: pnpm cli backup <file>" })
      if (config.databaseUrl !== undefined) return yield* onPostgres
      const dump = yield* Effect.serviceOption(EmbeddedDump)
      if (Option.isNone(dump)) return yield* onPostgres
      const target = resolvePath(process.env, file)
      const database = yield* dump.value.dump
      yield* writeBackup({
        file: target,
        database,
        filesDir: separateFilesDir(config.filesDir, config.dataDir),
        createdAt: new Date()
      })
      yield* Console.log(`Backup of ${config.dataDir} written to ${target}.`)
    })
}

export const restoreCommand: PlainCommand = {
  usage: "restore <file>",
  summary: "restore a backup into an empty DATA_DIR (and an empty files folder)",
  opensDatabase: false,
  run: (args, config) =>
    Effect.gen(function*() {
      const [file] = args
      if (file === undefined || args.length !== 1) return yield* new StartupError({ message: "Usage: pnpm cli restore <file>" })
      if (config.databaseUrl !== undefined) return yield* onPostgres
      const source = resolvePath(process.env, file)
      if (!isEmptyFolder(config.dataDir)) {
        return yield* new StartupError({
          message: `DATA_DIR ${config.dataDir} is not empty: a backup is restored into an empty folder only.`
        })
      }
      const backup = yield* readBackup(source)
      if (backup.filesDir !== undefined && !isEmptyFolder(config.filesDir)) {
        return yield* new StartupError({ message: `FILES_DIR ${config.filesDir} is not empty: restore into an empty one.` })
      }
      yield* restoreEmbedded({ dataDir: config.dataDir, tarball: backup.database })
      const filesDir = backup.filesDir
      if (filesDir !== undefined && existsSync(filesDir)) {
        yield* Effect.tryPromise({
          try: async () => {
            await mkdir(config.filesDir, { recursive: true, mode: 0o700 })
            await cp(filesDir, config.filesDir, { recursive: true })
          },
          catch: (cause) => new BackupError({ message: `cannot restore the files: ${cause instanceof Error ? cause.message : String(cause)}` })
        })
      }
      yield* Console.log(`Backup of ${backup.manifest.created_at} restored into ${config.dataDir}.`)
    }).pipe(Effect.scoped)
}
