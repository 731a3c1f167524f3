/**
 * PostgreSQL embedded in the process: PGlite reached in-process through its wire-protocol handler, by one
 * pooled connection, with no socket of any kind (CONTRACT §16).
 */
// Types only: PGlite is imported when the embedded database starts, so a server on PostgreSQL
// (DATABASE_URL) never loads it.
import type { PGlite } from "@electric-sql/pglite"
import { PgClient } from "@effect/sql-pg"
import { Context, Duration, Effect, Layer, Schema } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { type DataDirLock, DataDirInUse, lockDataDir } from "./DataDirLock.js"
import { embeddedSettings, keepWasmCompact } from "./embeddedMemory.js"
import { keepOwnerOnly, restrictDataDir } from "./ownerOnly.js"
import { PgliteSession } from "./PgliteWire.js"

export class EmbeddedPgError extends Schema.TaggedError<EmbeddedPgError>()("EmbeddedPgError", {
  message: Schema.String
}) {}

export interface EmbeddedPgOptions {
  /**
   * A folder to keep the database in, open in one process at a time (a lock file in it); omitted: in
   * memory (gone when the layer is released).
   */
  readonly dataDir?: string | undefined
}

const describe = (cause: unknown): string => cause instanceof Error ? cause.message : String(cause)

interface Opened {
  readonly db: PGlite
  readonly session: PgliteSession
  readonly lock: DataDirLock | undefined
}

const open = (options: EmbeddedPgOptions) =>
  Effect.tryPromise({
    try: async (): Promise<Opened> => {
      const dataDir = options.dataDir
      const lock = dataDir === undefined ? undefined : lockDataDir(dataDir)
      try {
        // 0700 before PGlite writes anything: no other user reaches in, whatever the modes inside
        if (dataDir !== undefined) restrictDataDir(dataDir)
        keepWasmCompact()
        const { PGlite } = await import("@electric-sql/pglite")
        const db = await PGlite.create({
          ...(dataDir === undefined ? {} : { dataDir }),
          startParams: [...PGlite.defaultStartParams, ...embeddedSettings]
        })
        if (dataDir !== undefined) {
          // a new database's files come out of PGlite's archive 0666; later ones pass through its chmod
          restrictDataDir(dataDir)
          keepOwnerOnly(db)
        }
        return { db, session: new PgliteSession(db), lock }
      } catch (error) {
        lock?.release()
        throw error
      }
    },
    catch: (cause) =>
      new EmbeddedPgError({
        message: cause instanceof DataDirInUse ? cause.message : `The embedded database did not start: ${describe(cause)}`
      })
  })

/** After the pool's connection ended and its session was reset: PGlite closes, then the folder is free. */
const close = ({ db, session, lock }: Opened) =>
  Effect.promise(async () => {
    await session.idle()
    try {
      if (!db.closed) await db.close()
    } finally {
      lock?.release()
    }
  })

/**
 * A consistent copy of the embedded database's folder, taken while the server runs: PGlite's `dumpDataDir`, a
 * tarball made while no statement runs (a transaction in flight is in it as a crash would leave it: PostgreSQL's
 * recovery rolls it back when the copy is opened). Provided by `EmbeddedPg.layerWithDump`.
 */
export class EmbeddedDump extends Context.Service<EmbeddedDump, {
  /** The folder as a gzipped tarball. */
  readonly dump: Effect.Effect<Uint8Array, EmbeddedPgError>
}>()("@forms/adapters-sql/EmbeddedDump") {}

const dumpOf = (db: PGlite): Effect.Effect<Uint8Array, EmbeddedPgError> =>
  Effect.tryPromise({
    try: async () => new Uint8Array(await (await db.dumpDataDir("gzip")).arrayBuffer()),
    catch: (cause) => new EmbeddedPgError({ message: `The embedded database could not be copied: ${describe(cause)}` })
  })

/** PGlite is released after the client's pool (finalizers run in reverse order). */
const acquire = (options: EmbeddedPgOptions) => Effect.map(acquireWithDump(options), ({ client }) => client)

const acquireWithDump = (options: EmbeddedPgOptions) =>
  Effect.gen(function*() {
    const { db, session } = yield* Effect.acquireRelease(open(options), close)
    const client = yield* PgClient.make({
      stream: session.open,
      username: "postgres",
      database: "postgres",
      applicationName: "forms-portal",
      connectTimeout: Duration.seconds(5),
      // PGlite is one session: exactly one connection, kept open.
      maxConnections: 1,
      minConnections: 1,
      idleTimeout: Duration.days(365)
    })
    return { client, dump: EmbeddedDump.of({ dump: dumpOf(db) }) }
  })

export const EmbeddedPg = {
  /** Provides `PgClient` and `SqlClient` on an embedded PGlite. */
  layer: (options: EmbeddedPgOptions = {}) => PgClient.layerFrom(acquire(options)),
  /** Provides `PgClient`, `SqlClient` and `EmbeddedDump` (what backups copy the running database with). */
  layerWithDump: (
    options: EmbeddedPgOptions = {}
  ): Layer.Layer<PgClient.PgClient | SqlClient.SqlClient | EmbeddedDump, EmbeddedPgError | SqlError> =>
    Layer.effectContext(
      Effect.map(acquireWithDump(options), ({ client, dump }) =>
        Context.make(PgClient.PgClient, client).pipe(
          Context.add(SqlClient.SqlClient, client),
          Context.add(EmbeddedDump, dump)
        ))
    ).pipe(Layer.provide(Reactivity.layer))
} as const
