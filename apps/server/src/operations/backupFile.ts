/**
 * The backup file of the embedded database: an uncompressed tar holding
 *
 * - `manifest.json`: `{ "format": "forms-backup", "version": 1, "created_at": "<ISO time>", "database":
 *   "database.tar.gz", "files": true|false }`;
 * - `database.tar.gz`: PGlite's own copy of the data folder (`dumpDataDir`), restored with its `loadDataDir`;
 * - `files/`: the uploaded files' folder, when it exists and lies outside the data folder (inside it, it is part of
 *   the database's copy already).
 *
 * Written beside its final name and renamed into place, so a file with the final name is always whole.
 */
import { Effect, Schema } from "effect"
import { existsSync } from "node:fs"
import { cp, mkdir, mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises"
import { basename, dirname, join, relative, resolve } from "node:path"
import * as tar from "tar"

export class BackupError extends Schema.TaggedError<BackupError>()("BackupError", { message: Schema.String }) {}

export const Manifest = Schema.Struct({
  format: Schema.Literal("forms-backup"),
  version: Schema.Literal(1),
  created_at: Schema.String,
  database: Schema.Literal("database.tar.gz"),
  files: Schema.Boolean
})
export type Manifest = typeof Manifest.Type

const describe = (cause: unknown): string => cause instanceof Error ? cause.message : String(cause)

const attempt = <A>(what: string, run: () => Promise<A>) =>
  Effect.tryPromise({ try: run, catch: (cause) => new BackupError({ message: `${what}: ${describe(cause)}` }) })

/** Whether `inner` is `outer` or lies inside it. */
export const isInside = (inner: string, outer: string): boolean => {
  const path = relative(resolve(outer), resolve(inner))
  return path === "" || (!path.startsWith("..") && !path.startsWith("/"))
}

/** The files folder a backup holds apart: none when missing, or when inside the data folder (the dump has it). */
export const separateFilesDir = (filesDir: string, dataDir: string): string | undefined =>
  existsSync(filesDir) && !isInside(filesDir, dataDir) ? filesDir : undefined

export const writeBackup = (options: {
  readonly file: string
  readonly database: Uint8Array
  readonly filesDir: string | undefined
  readonly createdAt: Date
}) =>
  Effect.acquireUseRelease(
    attempt("cannot prepare the backup", async () => {
      await mkdir(dirname(resolve(options.file)), { recursive: true })
      return mkdtemp(join(dirname(resolve(options.file)), ".forms-backup-"))
    }),
    (staging) =>
      attempt(`cannot write ${basename(options.file)}`, async () => {
        const manifest: Manifest = {
          format: "forms-backup",
          version: 1,
          created_at: options.createdAt.toISOString(),
          database: "database.tar.gz",
          files: options.filesDir !== undefined
        }
        await writeFile(join(staging, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n")
        await writeFile(join(staging, "database.tar.gz"), options.database)
        if (options.filesDir !== undefined) await cp(options.filesDir, join(staging, "files"), { recursive: true })
        const partial = join(staging, "backup.tar")
        await tar.create({ file: partial, cwd: staging, portable: true }, [
          "manifest.json",
          "database.tar.gz",
          ...(options.filesDir === undefined ? [] : ["files"])
        ])
        await rename(partial, resolve(options.file))
      }),
    (staging) => Effect.promise(() => rm(staging, { recursive: true, force: true }))
  )

export interface ReadBackup {
  readonly manifest: Manifest
  readonly database: Uint8Array
  /** The extracted files folder, when the backup holds one. */
  readonly filesDir: string | undefined
}

/** Extracts a backup into a scoped temporary folder and checks its manifest. */
export const readBackup = (file: string) =>
  Effect.gen(function*() {
    const staging = yield* Effect.acquireRelease(
      attempt("cannot prepare the restore", () => mkdtemp(join(dirname(resolve(file)), ".forms-restore-"))),
      (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true }))
    )
    yield* attempt(`cannot read ${file} as a backup`, () => tar.extract({ file, cwd: staging, strict: true }))
    const text = yield* attempt(`${file} holds no manifest.json: not a backup of this server`, () =>
      readFile(join(staging, "manifest.json"), "utf8"))
    const manifest = yield* Schema.decodeUnknownEffect(Schema.fromJsonString(Manifest))(text).pipe(
      Effect.mapError(() => new BackupError({ message: `${file}: its manifest.json is not one this server writes` }))
    )
    const database = yield* attempt(`${file} holds no database copy`, async () =>
      new Uint8Array(await readFile(join(staging, manifest.database))))
    return { manifest, database, filesDir: manifest.files ? join(staging, "files") : undefined } satisfies ReadBackup
  })
