/**
 * FileStorage in a folder (the embedded mode's, `<DATA_DIR>/files` by default): owner-only like the database's
 * files, each content written to a temporary name and renamed once whole, so a crash never leaves a half file
 * under a real key. Temporary files left by a process that died (older than an hour) are removed when the layer
 * starts; newer ones may be another process's uploads in flight over the same folder.
 */
import { createReadStream } from "node:fs"
import { mkdir, open, readdir, rename, rm, stat } from "node:fs/promises"
import { join } from "node:path"
import { Effect, Layer, Option, Stream } from "effect"
import { FileStorage, Unavailable } from "@forms/domain"
import { restrictDataDir } from "../connection/ownerOnly.js"

const temporary = ".incoming"
/** A temporary file not written to for this long belongs to no upload in flight. */
const staleTemporaryMs = 3_600_000
/** Keys are generated ids: anything else (a path, a dot) is refused before it reaches the file system. */
const keyPattern = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/

const unavailable = (what: string) => (cause: unknown) =>
  new Unavailable({ reason: `File storage: ${what} failed (${cause instanceof Error ? cause.message : String(cause)}).` })

const checkKey = (key: string) =>
  keyPattern.test(key) ? Effect.succeed(key) : Effect.fail(new Unavailable({ reason: "File storage: a malformed key." }))

export const makeFolderFileStorage = (dir: string) =>
  Effect.gen(function*() {
    yield* Effect.try({ try: () => restrictDataDir(dir), catch: unavailable("preparing the folder") })
    const incoming = join(dir, temporary)
    // What a process that died left half written is no content: it goes.
    yield* Effect.tryPromise({
      try: async () => {
        await mkdir(incoming, { recursive: true, mode: 0o700 })
        const staleBefore = Date.now() - staleTemporaryMs
        for (const name of await readdir(incoming)) {
          const path = join(incoming, name)
          const info = await stat(path).catch(() => undefined)
          if (info !== undefined && info.mtimeMs < staleBefore) await rm(path, { force: true, recursive: true })
        }
      },
      catch: unavailable("preparing the folder")
    })
    let sequence = 0

    const put = <E>(key: string, body: Stream.Stream<Uint8Array, E>): Effect.Effect<void, E | Unavailable> =>
      Effect.gen(function*() {
        yield* checkKey(key)
        sequence += 1
        const temp = join(incoming, `${key}.${process.pid}.${sequence}`)
        yield* Effect.acquireUseRelease(
          Effect.tryPromise({ try: () => open(temp, "wx", 0o600), catch: unavailable("opening a file") }),
          (handle) =>
            Effect.gen(function*() {
              // Each chunk is written before the next is pulled: the client is read no faster than the disk takes it.
              yield* Stream.runForEach(body, (chunk) =>
                Effect.tryPromise({ try: () => handle.write(chunk), catch: unavailable("writing") }))
              yield* Effect.tryPromise({ try: () => handle.sync(), catch: unavailable("writing") })
            }),
          (handle) => Effect.promise(() => handle.close().catch(() => undefined))
        ).pipe(
          Effect.andThen(Effect.tryPromise({ try: () => rename(temp, join(dir, key)), catch: unavailable("storing") })),
          Effect.onExit((exit) => exit._tag === "Success" ? Effect.void : Effect.promise(() => rm(temp, { force: true })))
        )
      })

    const get = (key: string) =>
      Effect.gen(function*() {
        if (!keyPattern.test(key)) return Option.none()
        const path = join(dir, key)
        const found = yield* Effect.tryPromise({
          try: () => stat(path).then(() => true, (e: NodeJS.ErrnoException) => e.code === "ENOENT" ? false : Promise.reject(e)),
          catch: unavailable("reading")
        })
        if (!found) return Option.none()
        return Option.some(Stream.fromAsyncIterable(
          createReadStream(path, { highWaterMark: 64 * 1024 }) as AsyncIterable<Uint8Array>,
          unavailable("reading")
        ))
      })

    const remove = (key: string) =>
      keyPattern.test(key)
        ? Effect.tryPromise({ try: () => rm(join(dir, key), { force: true }), catch: unavailable("removing") })
        : Effect.void

    const keys = Effect.tryPromise({
      try: async () => (await readdir(dir)).filter((name) => name !== temporary),
      catch: unavailable("listing")
    })

    return FileStorage.of({ put, get, remove, keys })
  })

/** FileStorage in `dir` (created owner-only when missing). */
export const FolderFileStorage = {
  layer: (dir: string): Layer.Layer<FileStorage, Unavailable> => Layer.effect(FileStorage, makeFolderFileStorage(dir))
} as const
