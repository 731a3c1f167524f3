/** Test databases: an embedded PGlite per file, or (when TEST_DATABASE_URL is set) a fresh schema per file on a real server. */
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer } from "effect"
import type { SqlClient } from "effect/sql"
import type { OutboxSignal } from "@forms/domain"
import { EmbeddedPg } from "../src/connection/EmbeddedPg.js"
import { PgLive } from "../src/connection/PgLive.js"
import { Migrations } from "../src/migrations/Migrations.js"
import { SqlPortalPorts } from "../src/SqlPortalPorts.js"
import { SqlPorts } from "../src/SqlPorts.js"
import { loadFixture } from "../src/fixture/loadFixture.js"

export const testDatabaseUrl: string | undefined = process.env["TEST_DATABASE_URL"] || undefined

export const skipReason = "TEST_DATABASE_URL is not set: the tests on a real PostgreSQL server are skipped"

const randomName = (prefix: string): string => `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`

/** A fresh schema name for `isolatedPg` (lower case: it is also what `current_schema()` answers). */
export const testSchemaName = (): string => randomName("forms_test")

/** Runs one statement on its own short-lived connection. */
const execute = (url: string, statement: string) =>
  Effect.gen(function*() {
    const sql = yield* PgClient.PgClient
    yield* sql.unsafe(statement)
  }).pipe(Effect.provide(PgLive.layer({ url, maxConnections: 1 })))

/**
 * A schema of its own on the server of `url` (test files run in parallel and share the CI's database),
 * dropped with everything in it when the layer is released.
 */
export const isolatedPg = (
  url: string,
  maxConnections = 20,
  schema = testSchemaName()
): Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, unknown> =>
  Layer.unwrap(Effect.gen(function*() {
    yield* Effect.acquireRelease(
      execute(url, `CREATE SCHEMA ${schema}`),
      () => Effect.ignore(execute(url, `DROP SCHEMA ${schema} CASCADE`))
    )
    return PgLive.layer({ url, searchPath: schema, maxConnections })
  }))

/** A migrated database with every port on top, the clients kept visible to the tests. */
export const withPorts = <E>(database: Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, E>) =>
  SqlPorts.layer.pipe(Layer.provideMerge(Migrations.layer), Layer.provideMerge(database))

export const embeddedPorts = withPorts(EmbeddedPg.layer())

/** `withPorts` over a database that holds `fixture` (loaded with the fixture loader) and nothing else. */
export const seededPorts = <E>(database: Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, E>, fixture: unknown) =>
  SqlPorts.layer.pipe(
    Layer.provideMerge(Layer.effectDiscard(loadFixture(fixture))),
    Layer.provideMerge(Migrations.layer),
    Layer.provideMerge(database)
  )

/**
 * Every port (the public-form ones and the portal ones) over a database holding `fixture`, with `signal`
 * beneath them, so that their commits wake it in process.
 */
export const seededPortalPorts = <E>(
  database: Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, E>,
  fixture: unknown,
  signal: Layer.Layer<OutboxSignal>
) =>
  Layer.mergeAll(SqlPorts.layer, SqlPortalPorts.layer).pipe(
    Layer.provideMerge(signal),
    Layer.provideMerge(Layer.effectDiscard(loadFixture(fixture))),
    Layer.provideMerge(Migrations.layer),
    Layer.provideMerge(database)
  )
