/** The database of the server and CLI: PostgreSQL at DATABASE_URL, else PGlite embedded in DATA_DIR. */
import { Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { EmbeddedPg, PgLive } from "@forms/adapters-sql"
import { Readiness } from "@forms/adapters-http"
import { Unavailable } from "@forms/domain"
import type { ServerConfig } from "./config.js"

/** Provides `PgClient` and `SqlClient` (and `EmbeddedDump` on the embedded database, what backups copy). */
const makeDatabaseLayer = (config: ServerConfig) =>
  config.databaseUrl === undefined
    ? EmbeddedPg.layerWithDump({ dataDir: config.dataDir })
    : PgLive.layer({ url: Redacted.value(config.databaseUrl) })

/** GET /health/ready: `SELECT 1` answered within two seconds. */
const makeReadinessLayer = Layer.effect(
  Readiness,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const unavailable = new Unavailable({ reason: "the database did not answer" })
    return Readiness.of({
      check: sql`SELECT 1`.pipe(
        Effect.timeoutOrElse({ duration: "2 seconds", orElse: () => Effect.fail(unavailable) }),
        Effect.mapError(() => unavailable),
        Effect.asVoid
      )
    })
  })
)

/** True when no organisation is stored yet (an empty database gets the demo fixture). */
export const isEmpty = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql`SELECT 1 AS one FROM organisations LIMIT 1`
  return rows.length === 0
})

/** `Database.layer(…)`. */
export const Database = { layer: makeDatabaseLayer } as const

/** `ServerReadiness.layer`. */
export const ServerReadiness = { layer: makeReadinessLayer } as const
