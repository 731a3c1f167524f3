/** PostgreSQL embedded in the process: PGlite served on a loopback socket, reached through one pooled connection. */
// Types only: PGlite and its socket server are imported when the embedded database starts, so a server on
// PostgreSQL (DATABASE_URL) never loads them.
import type { PGlite } from "@electric-sql/pglite"
import type { PGLiteSocketServer } from "@electric-sql/pglite-socket"
import { PgClient } from "@effect/sql-pg"
import { Duration, Effect, Schema } from "effect"

export class EmbeddedPgError extends Schema.TaggedError<EmbeddedPgError>()("EmbeddedPgError", {
  message: Schema.String
}) {}

export interface EmbeddedPgOptions {
  /** A folder to keep the database in; omitted: in memory (gone when the layer is released). */
  readonly dataDir?: string | undefined
}

const describe = (cause: unknown): string => cause instanceof Error ? cause.message : String(cause)

interface Served {
  readonly db: PGlite
  readonly server: PGLiteSocketServer
  readonly port: number
}

const start = (options: EmbeddedPgOptions) =>
  Effect.tryPromise({
    try: async (): Promise<Served> => {
      const [pglite, socket] = await Promise.all([
        import("@electric-sql/pglite"),
        import("@electric-sql/pglite-socket")
      ])
      const db = await pglite.PGlite.create(options.dataDir === undefined ? {} : { dataDir: options.dataDir })
      // Port 0: the system picks a free port. Two connections are admitted only so that a reconnect
      // does not race the socket server's cleanup of the previous one; the pool uses one.
      const server = new socket.PGLiteSocketServer({ db, host: "127.0.0.1", port: 0, maxConnections: 2 })
      try {
        await server.start()
      } catch (error) {
        await db.close()
        throw error
      }
      const port = Number(server.getServerConn().split(":").at(-1))
      return { db, server, port }
    },
    catch: (cause) => new EmbeddedPgError({ message: `The embedded database did not start: ${describe(cause)}` })
  })

const stop = ({ db, server }: Served) =>
  Effect.promise(async () => {
    await server.stop()
    if (!db.closed) await db.close()
  })

/** The socket server and PGlite are released after the client's pool (finalizers run in reverse order). */
const acquire = (options: EmbeddedPgOptions) =>
  Effect.gen(function*() {
    const served = yield* Effect.acquireRelease(start(options), stop)
    return yield* PgClient.make({
      host: "127.0.0.1",
      port: served.port,
      username: "postgres",
      database: "postgres",
      applicationName: "forms-portal",
      connectTimeout: Duration.seconds(5),
      // PGlite is one session: exactly one connection, kept open.
      maxConnections: 1,
      minConnections: 1,
      idleTimeout: Duration.days(365)
    })
  })

export const EmbeddedPg = {
  /** Provides `PgClient` and `SqlClient` on an embedded PGlite. */
  layer: (options: EmbeddedPgOptions = {}) => PgClient.layerFrom(acquire(options))
} as const
