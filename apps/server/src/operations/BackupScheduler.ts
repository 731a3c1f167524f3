/**
 * BACKUP_DIR on the embedded database: a backup file (backupFile.ts) every BACKUP_INTERVAL_HOURS, the newest
 * BACKUP_KEEP kept. The first one is due an interval after the newest file already there, or at start when there
 * is none (or it is older): a server restarted often does not back up at every start, and a fresh one is covered
 * at once. A failed round is logged and tried again an interval later.
 */
import { Clock, Duration, Effect, Layer, Option } from "effect"
import { readdir, stat, unlink } from "node:fs/promises"
import { join } from "node:path"
import { EmbeddedDump } from "@forms/adapters-sql"
import type { BackupConfig, ServerConfig } from "../config.js"
import { StartupError } from "../startup.js"
import { separateFilesDir, writeBackup } from "./backupFile.js"

/** Scheduled backups are named `forms-backup-<UTC time>.tar`, so that names sort by time. */
export const backupNamePattern = /^forms-backup-\d{8}T\d{6}(\d{3})?Z\.tar$/

export const backupName = (at: Date): string =>
  `forms-backup-${at.toISOString().replace(/[-:]/g, "").replace(/\.(\d{3})Z$/, "$1Z")}.tar`

const listBackups = (dir: string) =>
  Effect.promise(async () => {
    const names = await readdir(dir).catch(() => [] as Array<string>)
    return names.filter((name) => backupNamePattern.test(name)).sort()
  })

/** When the newest backup in `dir` was written (epoch ms), if there is one. */
const newestAt = (dir: string) =>
  Effect.flatMap(listBackups(dir), (names) => {
    const newest = names.at(-1)
    return newest === undefined
      ? Effect.succeed(undefined)
      : Effect.promise(() => stat(join(dir, newest)).then((s) => s.mtimeMs, () => undefined))
  })

/** One backup now, then the oldest ones beyond `keep` removed. */
export const backupOnce = (config: ServerConfig, backup: BackupConfig, dump: typeof EmbeddedDump.Service) =>
  Effect.gen(function*() {
    const at = new Date(yield* Clock.currentTimeMillis)
    const name = backupName(at)
    const database = yield* dump.dump
    yield* writeBackup({
      file: join(backup.dir, name),
      database,
      filesDir: separateFilesDir(config.filesDir, config.dataDir),
      createdAt: at
    })
    const names = yield* listBackups(backup.dir)
    const removed = names.slice(0, Math.max(0, names.length - backup.keep))
    yield* Effect.forEach(removed, (old) => Effect.promise(() => unlink(join(backup.dir, old)).catch(() => undefined)), {
      discard: true
    })
    yield* Effect.logInfo("backup written").pipe(
      Effect.annotateLogs({ file: name, bytes: database.byteLength, removed: removed.length })
    )
  })

const makeBackupScheduler = (config: ServerConfig, backup: BackupConfig) =>
  Layer.effectDiscard(Effect.gen(function*() {
    const dump = yield* Effect.serviceOption(EmbeddedDump)
    if (Option.isNone(dump)) {
      return yield* new StartupError({ message: "BACKUP_DIR backs up the embedded database of DATA_DIR, which this server does not use." })
    }
    const interval = Duration.hours(backup.intervalHours)
    const round = backupOnce(config, backup, dump.value).pipe(
      Effect.catchCause((cause) => Effect.logWarning("backup failed", cause))
    )
    const loop = Effect.gen(function*() {
      const last = yield* newestAt(backup.dir)
      const now = yield* Clock.currentTimeMillis
      const wait = last === undefined ? 0 : Math.max(0, last + Duration.toMillis(interval) - now)
      yield* Effect.sleep(Duration.millis(wait))
      while (true) {
        yield* round
        yield* Effect.sleep(interval)
      }
    })
    yield* Effect.forkScoped(loop)
  }))

/** `BackupScheduler.layer(config)`: nothing without BACKUP_DIR; with it, the embedded database's `EmbeddedDump`. */
export const BackupScheduler = {
  layer: (config: ServerConfig): Layer.Layer<never, StartupError> =>
    config.backup === undefined ? Layer.empty : makeBackupScheduler(config, config.backup)
} as const
