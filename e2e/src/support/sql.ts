/** Plain SQL from the tests (checks, admin) through the adapters' own PostgreSQL client. */
import { Effect, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import { PgLive } from "@forms/adapters-sql"

export type Row = Record<string, unknown>

export interface Sql {
  readonly query: <A extends Row = Row>(text: string, params?: ReadonlyArray<unknown>) => Promise<ReadonlyArray<A>>
  readonly close: () => Promise<void>
}

export const connectSql = (url: string): Sql => {
  const runtime = ManagedRuntime.make(PgLive.layer({ url, maxConnections: 2, connectTimeout: "5 seconds" }))
  return {
    query: <A extends Row = Row>(text: string, params: ReadonlyArray<unknown> = []) =>
      runtime.runPromise(
        Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe<A>(text, params))
      ),
    close: () => runtime.dispose()
  }
}

/** The same server, another database. */
export const databaseUrl = (serverUrl: string, database: string): string => {
  const url = new URL(serverUrl)
  url.pathname = `/${database}`
  return url.toString()
}

export const uniqueDatabaseName = (what: string): string =>
  `forms_e2e_${what}_${Date.now().toString(36)}_${process.pid}`

const assertName = (name: string) => {
  if (!/^forms_e2e_[a-z0-9_]+$/.test(name)) throw new Error(`refusing to touch database ${name}`)
}

/** Creates `name` on the server of `adminUrl`; returns its URL. */
export const createDatabase = async (adminUrl: string, name: string): Promise<string> => {
  assertName(name)
  const admin = connectSql(adminUrl)
  try {
    await admin.query(`CREATE DATABASE ${name}`)
  } finally {
    await admin.close()
  }
  return databaseUrl(adminUrl, name)
}

export const dropDatabase = async (adminUrl: string, name: string): Promise<void> => {
  assertName(name)
  const admin = connectSql(adminUrl)
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  } finally {
    await admin.close()
  }
}

/** Ends every session of our own database (never another's): the "database goes away" fault. */
export const terminateBackends = async (admin: Sql, database: string): Promise<number> => {
  assertName(database)
  const rows = await admin.query<{ ended: boolean }>(
    `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
    [database]
  )
  return rows.filter((r) => r.ended).length
}
